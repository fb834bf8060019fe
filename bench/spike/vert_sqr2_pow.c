/*
 * Spike (issue 44, not in the build): the library's dual exponentiation
 * (pow_avx2.c through vert_sqr2_powhook.c) with its squarings by the C
 * kernel or by big_vert_sqr2_avx2_asm, both checked against mpz_powm
 * (random moduli, 2^b - 1, 2^(b-1) + 1, random bases and full exponents),
 * then alternating trial by trial: least and median of the per-trial
 * ratios.  Usage: vert_sqr2_pow TRIALS SEED [ASM_FIRST].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <gmp.h>
#include <x86intrin.h>
#include "bignum/vertical/vertical.h"
typedef void fn(struct big_vert_num *r, const struct big_vert_num *a, const struct big_vert_mod *mod, struct big_vert_work *work);
fn big_vert_sqr2_avx2_asm, big_vert_sqr2_avx2;
extern void (*vert_sqr_hook)(struct big_vert_num *r, const struct big_vert_num *a, const struct big_vert_mod *mod, struct big_vert_work *work);
void hooked_pow2(uint64_t *m_p, uint64_t *m_q, const uint64_t *a_p, const uint64_t *a_q, const uint64_t *dp, const uint64_t *dq, int elen, const uint64_t *p, const uint64_t *q, const uint64_t *rr_p, const uint64_t *rr_q, int len, uint64_t *scratch);
static int cmpd(const void*x,const void*y){double d=*(double*)x-*(double*)y;return (d>0)-(d<0);}
static void ex(uint64_t *o, mpz_t v, int len){ memset(o,0,8*len); size_t c; mpz_export(o,&c,-1,8,0,0,v);}
int main(int argc,char**argv){ int trials=argc>1?atoi(argv[1]):41; unsigned long seed=argc>2?strtoul(argv[2],0,10):44; int asm_first=argc>3&&atoi(argv[3]);
 gmp_randstate_t rs; gmp_randinit_default(rs); gmp_randseed_ui(rs,seed); printf("seed %lu\n",seed);
 for(int li=0;li<2;li++){ int len=li?32:24;
  mpz_t p,q,a,d1,d2,rr,t,B; mpz_inits(p,q,a,d1,d2,rr,t,B,NULL);
  uint64_t P[32],Q[32],AP[32],AQ[32],DP[32],DQ[32],RP[32],RQ[32],M1[32],M2[32],M3[32],M4[32];
  uint64_t *scr=malloc(8*big_vert_pow2_scratch(len,len));
  int bad=0;
  for(int rep=0;rep<6;rep++){
   mpz_urandomb(p,rs,64*len); mpz_setbit(p,64*len-1); mpz_setbit(p,0); mpz_urandomb(q,rs,64*len); mpz_setbit(q,64*len-1); mpz_setbit(q,0);
   if(rep==1){mpz_ui_pow_ui(p,2,64*len);mpz_sub_ui(p,p,1);} if(rep==2){mpz_ui_pow_ui(q,2,64*len-1);mpz_add_ui(q,q,1);}
   ex(P,p,len);ex(Q,q,len); mpz_ui_pow_ui(B,2,128*len); mpz_mod(rr,B,p); ex(RP,rr,len); mpz_mod(rr,B,q); ex(RQ,rr,len);
   mpz_urandomm(a,rs,p); ex(AP,a,len); mpz_urandomb(d1,rs,64*len); ex(DP,d1,len); mpz_urandomm(a,rs,q); ex(AQ,a,len); mpz_urandomb(d2,rs,64*len); ex(DQ,d2,len);
   vert_sqr_hook=big_vert_sqr2_avx2; hooked_pow2(M1,M2,AP,AQ,DP,DQ,len,P,Q,RP,RQ,len,scr);
   vert_sqr_hook=big_vert_sqr2_avx2_asm; hooked_pow2(M3,M4,AP,AQ,DP,DQ,len,P,Q,RP,RQ,len,scr);
   mpz_t x; mpz_init(x); mpz_import(a,len,-1,8,0,0,AP); mpz_powm(x,a,d1,p); ex(AP,x,len); if(memcmp(AP,M1,8*len)||memcmp(AP,M3,8*len)) bad++;
   mpz_import(a,len,-1,8,0,0,AQ); mpz_powm(x,a,d2,q); ex(AQ,x,len); if(memcmp(AQ,M2,8*len)||memcmp(AQ,M4,8*len)) bad++;
   mpz_clear(x);
  }
  printf("len %d pow checks vs mpz_powm: bad %d\n",len,bad); if(bad) return 1;
  double *r=malloc(8*trials); uint64_t bc=~0ull,ba=~0ull;
  for(int tr=0;tr<trials+3;tr++){ uint64_t c, a;
   if (asm_first) { uint64_t t0=__rdtsc(); vert_sqr_hook=big_vert_sqr2_avx2_asm; hooked_pow2(M3,M4,AP,AQ,DP,DQ,len,P,Q,RP,RQ,len,scr); uint64_t t1=__rdtsc(); vert_sqr_hook=big_vert_sqr2_avx2; hooked_pow2(M1,M2,AP,AQ,DP,DQ,len,P,Q,RP,RQ,len,scr); uint64_t t2=__rdtsc(); a=t1-t0; c=t2-t1; }
   else { uint64_t t0=__rdtsc(); vert_sqr_hook=big_vert_sqr2_avx2; hooked_pow2(M1,M2,AP,AQ,DP,DQ,len,P,Q,RP,RQ,len,scr); uint64_t t1=__rdtsc(); vert_sqr_hook=big_vert_sqr2_avx2_asm; hooked_pow2(M3,M4,AP,AQ,DP,DQ,len,P,Q,RP,RQ,len,scr); uint64_t t2=__rdtsc(); c=t1-t0; a=t2-t1; }
   if(tr<3) continue; if(c<bc)bc=c; if(a<ba)ba=a; r[tr-3]=(double)a/c; }
  qsort(r,trials,8,cmpd); printf("len %d pow2 C-sqr min %lu  asm-sqr min %lu ticks   asm/C least %.3f median %.3f  min/min %.3f\n",len,bc,ba,r[0],r[trials/2],(double)ba/bc);
 }
}
