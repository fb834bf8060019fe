/*
 * The per-thread cache of blinding pairs and their use: rsa_blinding_next,
 * rsa_blinding_mul, rsa_blinding_forget, and the test hook
 * rsa_blinding_pair_for_test (contracts in rsa/blinding.h and
 * rsa/rsa_internal.h).
 *
 * Why a cache per thread, not per key: a pair kept in the key would be
 * written by every private operation, so threads sharing the key would
 * need a lock (OpenSSL's way); a thread's own block needs none.  Pairs are
 * kept in Montgomery form so that a use costs two squarings and two
 * Montgomery products at n's size (big_mont_sqr_vec, big_mont_mul_vec),
 * with no conversion.
 *
 * Each thread's block is its own anonymous mapping: MADV_WIPEONFORK gives
 * a forked child zeros (no slot matches), and a thread-exit destructor
 * wipes and unmaps it (rsa_thread_stop at once, where the caller asks).
 * The owner's pid is checked too, at each use: an emulator (qemu-user)
 * accepts madvise and ignores it, so a child there would otherwise find
 * its parent's pairs.  That is one getpid system call per private
 * operation, beside its exponentiations.  The destructor is registered
 * per thread with __cxa_thread_atexit_impl (glibc; what C++ thread_local
 * uses), not a pthread key: a key would be a global written at load time,
 * and glibc also runs these for the main thread at exit() and keeps a
 * shared object loaded while one is pending.
 */
#define _GNU_SOURCE
#include "blinding.h"

#include <sys/mman.h>
#include <unistd.h>

#include "rsa_internal.h"

struct slot {
	uint64_t id;    /* the key's blind_id; 0: empty */
	uint64_t last;  /* cache clock at the last use (LRU); 0: never */
	int len;        /* n's chunks */
	int uses;       /* private operations on this pair */
	BIG_CHUNK_TYPE a[BIG_MAX_MODULUS_CHUNKS]; /* r^e * R mod n */
	BIG_CHUNK_TYPE b[BIG_MAX_MODULUS_CHUNKS]; /* r^-1 * R mod n */
};

struct cache {
	pid_t pid;      /* owner process */
	uint64_t clock;
	struct slot slot[RSA_BLIND_SLOTS];
};

static _Thread_local struct cache *tls_cache;
/* Set once this thread's cache destructor has run (glibc runs these
 * destructors before pthread key destructors and atexit() handlers, and
 * one registered after that never runs) or rsa_thread_stop was called:
 * a cache made then lasts one operation (rsa_blinding_done). */
static _Thread_local int tls_exited;

extern void *__dso_handle __attribute__((visibility("hidden")));
int __cxa_thread_atexit_impl(void (*func)(void *), void *obj, void *dso_symbol);

static void cache_wipe_unmap(void)
{
	struct cache *c = tls_cache;
	tls_cache = NULL;
	if (c != NULL) {
		big_wipe(c, sizeof(*c));
		munmap(c, sizeof(*c));
	}
}

/* At thread exit; the caches made after it are released by their
 * operation. */
static void cache_destroy(void *p)
{
	(void)p; /* tls_cache: only this thread's destructor runs here */
	tls_exited = 1;
	cache_wipe_unmap();
}

/* The calling thread's cache, made on first use; NULL if it cannot be. */
static struct cache *cache_get(void)
{
	struct cache *c = tls_cache;
	if (c != NULL) {
		if (c->pid != getpid()) {
			/* A child where MADV_WIPEONFORK failed or was ignored. */
			big_wipe(c->slot, sizeof(c->slot));
			c->pid = getpid();
		}
		return c;
	}
	void *p = mmap(NULL, sizeof(struct cache), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	c = p; /* zero-filled: every slot empty */
	(void)madvise(p, sizeof(struct cache), MADV_WIPEONFORK);
	c->pid = getpid();
	/* glibc aborts here when out of memory (rsa.h); a C library that
	 * reports the failure gets RSA_ERR_NO_MEM. */
	if (!tls_exited && __cxa_thread_atexit_impl(cache_destroy, c, &__dso_handle) != 0) {
		munmap(p, sizeof(struct cache));
		return NULL;
	}
	tls_cache = c;
	return c;
}

/* dst = v * R mod n (n's chunks): v < n made by rsa_blind_pair, at most
 * n's length.  One Montgomery product by R^2 on padded vectors: time by
 * the lengths only (big_mont_conv trims its result, a loop that would
 * tell where the secret's top chunks are zero). */
static int to_mont(BIG_CHUNK_TYPE *dst, const BIGNUM *v, const rsa_key *key)
{
	const int len = key->n.len;
	BIG_CHUNK_TYPE rr[BIG_MAX_MODULUS_CHUNKS];
	if (len > BIG_MAX_MODULUS_CHUNKS)
		return RSA_ERR_ARGS;
	rsa_load_padded(dst, len, v);
	rsa_load_padded(rr, len, &key->n_rr);
	big_mont_mul_vec(dst, dst, rr, key->n.value, key->n0, len);
	return RSA_OK;
}

/* A fresh pair into s, in Montgomery form. */
static int fresh_pair(struct slot *s, const rsa_key *key)
{
	BIGNUM r_e, r_inv;
	int rc = RSA_ERR_NO_MEM;
	if (big_init(&r_e, key->n.len) != BIG_OK)
		return rc;
	if (big_init(&r_inv, key->n.len) == BIG_OK) {
		rc = rsa_blind_pair(&r_e, &r_inv, &key->e, &key->n, key->n0,
				    &key->n_rr);
		if (rc == RSA_OK)
			rc = to_mont(s->a, &r_e, key);
		if (rc == RSA_OK)
			rc = to_mont(s->b, &r_inv, key);
		big_finish(&r_inv);
	}
	big_finish(&r_e);
	return rc;
}

/* The slot holding key's pair, else the least recently used one (an empty
 * slot first), wiped and marked empty. */
static struct slot *slot_for(struct cache *c, uint64_t id, int len)
{
	struct slot *lru = &c->slot[0];
	for (int i = 0; i < RSA_BLIND_SLOTS; i++) {
		struct slot *s = &c->slot[i];
		if (s->id == id && s->len == len)
			return s;
		if (s->last < lru->last)
			lru = s;
	}
	big_wipe(lru, sizeof(*lru));
	return lru;
}

int rsa_blinding_next(const rsa_key *key, const BIG_CHUNK_TYPE **a,
		      const BIG_CHUNK_TYPE **b)
{
	struct cache *c = cache_get();
	if (c == NULL)
		return RSA_ERR_NO_MEM;
	const int len = key->n.len;
	struct slot *s = slot_for(c, key->blind_id, len);
	s->last = ++c->clock;
	if (s->id != 0 && s->uses < RSA_BLIND_REFRESH) {
		big_mont_sqr_vec(s->a, s->a, key->n.value, key->n0, len);
		big_mont_sqr_vec(s->b, s->b, key->n.value, key->n0, len);
		s->uses++;
	} else {
		s->id = 0; /* empty until the fresh pair is complete */
		int rc = fresh_pair(s, key);
		if (rc != RSA_OK) {
			big_wipe(s, sizeof(*s));
			return rc;
		}
		s->id = key->blind_id;
		s->len = len;
		s->uses = 1;
	}
	*a = s->a;
	*b = s->b;
	return RSA_OK;
}

int rsa_blinding_mul(BIGNUM *out, const BIGNUM *x, const BIG_CHUNK_TYPE *f,
		     const rsa_key *key)
{
	const int len = key->n.len;
	BIG_ERR_CODE err = big_extend(out, len);
	if (err != BIG_OK)
		return rsa_status_from_big(err, RSA_ERR_ARGS);
	rsa_load_padded(out->value, len, x);
	big_mont_mul_vec(out->value, out->value, f, key->n.value, key->n0, len);
	out->len = len;
	out->sign = 1;
	return RSA_OK;
}

void rsa_blinding_done(void)
{
	if (tls_exited)
		cache_wipe_unmap();
}

void rsa_thread_stop(void)
{
	tls_exited = 1;
	cache_wipe_unmap();
}

void rsa_blinding_forget(const rsa_key *key)
{
	struct cache *c = tls_cache;
	if (c == NULL)
		return;
	for (int i = 0; i < RSA_BLIND_SLOTS; i++)
		if (c->slot[i].id == key->blind_id)
			big_wipe(&c->slot[i], sizeof(c->slot[i]));
}

/* out (len bytes) = v * R^-1 mod n: v out of Montgomery form. */
static int export_plain(uint8_t *out, const BIG_CHUNK_TYPE *v,
			const rsa_key *key)
{
	BIG_CHUNK_TYPE buf[BIG_MAX_MODULUS_CHUNKS], one[BIG_MAX_MODULUS_CHUNKS];
	const int len = key->n.len;
	BIGNUM plain = {.size = len, .len = len, .sign = 1, .value = buf};
	for (int i = 0; i < len; i++)
		one[i] = i == 0;
	big_mont_mul_vec(buf, v, one, key->n.value, key->n0, len);
	int rc = rsa_status_from_big(bignum2bytestring(out, &plain, key->size),
				     RSA_ERR_ARGS);
	big_wipe(buf, sizeof(buf[0]) * (size_t)len);
	return rc;
}

int rsa_blinding_pair_for_test(const rsa_key *key, uint8_t *r_e,
			       uint8_t *r_inv)
{
	struct cache *c = tls_cache;
	if (key == NULL || c == NULL || c->pid != getpid())
		return RSA_ERR_ARGS;
	for (int i = 0; i < RSA_BLIND_SLOTS; i++) {
		const struct slot *s = &c->slot[i];
		if (s->id == key->blind_id && s->len == key->n.len) {
			int rc = export_plain(r_e, s->a, key);
			return rc == RSA_OK ? export_plain(r_inv, s->b, key) : rc;
		}
	}
	return RSA_ERR_ARGS;
}
