/*
 * Spike (issue 44, not in the build): two builds of vert_sqr2_avx2.asm
 * (symbols va and vb, nasm switches of run.sh) and the C kernel in one
 * process, alternating trial by trial (C, A, B; 16 chained calls each):
 * least and median of the per-trial ratios.  Prints DIFFER when a build's
 * results differ from C's (expected for the timing-only switches).
 * Usage: vert_sqr2_ab TRIALS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <x86intrin.h>
#include "bignum/vertical/vertical.h"
typedef void fn(struct big_vert_num *r, const struct big_vert_num *a, const struct big_vert_mod *mod, struct big_vert_work *work);
fn va, vb, big_vert_sqr2_avx2;
static struct big_vert_mod mod[2]; static struct big_vert_work work[2]; static struct big_vert_num A[2];
static int cmpd(const void*x,const void*y){double d=*(double*)x-*(double*)y;return (d>0)-(d<0);}
int main(int argc,char**argv){ int trials=atoi(argv[1]);
 fn *f[3]={big_vert_sqr2_avx2,va,vb};
 for(int li=0;li<2;li++){int len=li?32:24,N=big_vert_digits(len); uint64_t p[32],q[32]; srand(7); for(int i=0;i<len;i++){p[i]=rand()*0x9e3779b97f4a7c15ull^rand();q[i]=rand()*0xc2b2ae3d27d4eb4full^rand();} p[0]|=1;q[0]|=1;p[len-1]|=1ull<<63;q[len-1]|=1ull<<63;
 big_vert_mod_init(&mod[0],p,len);big_vert_mod_init(&mod[1],q,len); for(int h=0;h<2;h++){memset(&A[h],0,sizeof A[h]);for(int i=0;i<N-2;i++)A[h].d[4+i]=rand()&0xfffffff;}
 struct big_vert_num r[3][2]; for(int k=0;k<3;k++) memcpy(r[k],A,sizeof A);
 for(int k=0;k<3;k++) for(int j=0;j<50;j++) f[k](r[k],r[k],mod,work);
 if(memcmp(r[0],r[1],sizeof A)||memcmp(r[0],r[2],sizeof A)){printf("DIFFER\n");}
 uint64_t best[3]={~0ull,~0ull,~0ull}; double *ra=malloc(8*trials),*rb=malloc(8*trials),*rab=malloc(8*trials);
 for(int t=0;t<trials;t++){ uint64_t d[3]; for(int k=0;k<3;k++){ uint64_t t0=__rdtsc(); for(int j=0;j<16;j++) f[k](r[k],r[k],mod,work); d[k]=__rdtsc()-t0; if(d[k]<best[k])best[k]=d[k];} ra[t]=(double)d[1]/d[0]; rb[t]=(double)d[2]/d[0]; rab[t]=(double)d[2]/d[1];}
 qsort(ra,trials,8,cmpd);qsort(rb,trials,8,cmpd);qsort(rab,trials,8,cmpd);
 printf("N=%d C %lu A %lu B %lu (min ticks/call)  A/C least %.3f med %.3f  B/C least %.3f med %.3f  B/A least %.3f med %.3f\n",N,best[0]/16,best[1]/16,best[2]/16,ra[0],ra[trials/2],rb[0],rb[trials/2],rab[0],rab[trials/2]);}
}
