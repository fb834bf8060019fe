// bigmont-test: once
/*
 * big_ct_select, the constant-time table read of the window exponentiation:
 * every build of it (big_ct_select_c; big_ct_select_avx2 where the CPU has
 * AVX2, big_ct_select_vl where it has AVX-512VL; the dispatched name) returns exactly table[index] for every table
 * size the exponentiation uses (2^1 .. 2^6 entries) and a few others, every
 * index, every len from 1 to 80 and some RSA lengths past it, random-density
 * entries; guard chunks around out catch overruns.  The table is never
 * written.  (That it reads every entry whatever the index is proved by the
 * Memcheck test of the exponentiation, tests/ct.)
 */
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "testutil.h"

namespace {

using bt::chunk;

struct Impl {
	const char *name;
	big_ct_select_fn *fn;
};

std::vector<Impl> impls()
{
	std::vector<Impl> v = { { "c", big_ct_select_c }, { "dispatched", big_ct_select } };
#if defined(__x86_64__)
	if (big_ct_select_uses_avx2())
		v.push_back({ "avx2", big_ct_select_avx2 });
	else
		printf("[ note ] no AVX2 here: big_ct_select_avx2 not run\n");
	if (big_ct_select_can_vl())
		v.push_back({ "vl", big_ct_select_vl });
	else
		printf("[ note ] no AVX-512VL here: big_ct_select_vl not run\n");
#endif
	return v;
}

constexpr int kGuard = 4;
constexpr chunk kSentinel = static_cast<chunk>(0xa5a5a5a5a5a5a5a5ull);

TEST(CtSelect, EveryIndexEveryLength)
{
	bt::Rng rng(0x5e1ec7);
	const std::vector<int> lens = bt::lengths(80, { 96, 128, 129, 256 });
	for (const Impl &impl : impls()) {
		for (int entries : { 1, 2, 3, 4, 8, 16, 31, 32, 33, 64 }) {
			for (int len : lens) {
				std::vector<chunk> table = rng.vec(entries * len);
				const std::vector<chunk> before = table;
				std::vector<chunk> out(len + 2 * kGuard, kSentinel);
				for (int index = 0; index < entries; index++) {
					impl.fn(out.data() + kGuard, table.data(), entries,
						static_cast<chunk>(index), len);
					ASSERT_EQ(0, memcmp(out.data() + kGuard,
							    table.data() + index * len,
							    sizeof(chunk) * len))
						<< impl.name << " entries " << entries << " len " << len
						<< " index " << index;
					for (int g = 0; g < kGuard; g++) {
						ASSERT_EQ(out[g], kSentinel) << impl.name << " underrun";
						ASSERT_EQ(out[kGuard + len + g], kSentinel)
							<< impl.name << " overrun, len " << len;
					}
				}
				ASSERT_EQ(table, before) << impl.name << " wrote its table";
			}
		}
	}
}

/* All-ones and all-zero entries next to each other: a mask that leaked one
 * bit of a neighbour would show. */
TEST(CtSelect, ExtremeEntries)
{
	for (const Impl &impl : impls()) {
		for (int len : { 1, 4, 5, 8, 16, 17 }) {
			const int entries = 32;
			std::vector<chunk> table(entries * len);
			for (int i = 0; i < entries; i++)
				for (int j = 0; j < len; j++)
					table[i * len + j] = (i % 2) ? ~static_cast<chunk>(0) : 0;
			std::vector<chunk> out(len);
			for (int index = 0; index < entries; index++) {
				impl.fn(out.data(), table.data(), entries, static_cast<chunk>(index), len);
				for (int j = 0; j < len; j++)
					ASSERT_EQ(out[j], (index % 2) ? ~static_cast<chunk>(0) : 0)
						<< impl.name << " len " << len << " index " << index;
			}
		}
	}
}

} // namespace
