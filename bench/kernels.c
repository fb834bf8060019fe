/*
 * bench/kernels.c -- the kernel tables of `bigmont speed --kernels`
 * (contract in kernels.h).
 */
#include "kernels.h"

#include <math.h>
#include <string.h>

int bench_kernels_report(FILE *out, struct bench_kernels *k, double trial_scale, char *err,
			 size_t errlen)
{
	memset(k, 0, sizeof(*k));
	k->trial_scale = trial_scale;
	/* First, so that its runs and the tables' share the calibration. */
	bench_peak_measure(&k->peak, &k->clock);
	int cannot = bench_vec_kernels_measure(&k->vec, trial_scale, &k->clock);
	cannot |= bench_mont_kernels_measure(&k->mont, trial_scale, &k->clock);
	cannot |= bench_r52_kernels_measure(&k->r52, trial_scale, &k->clock);
	bench_lanes_kernels_measure(&k->lanes, trial_scale, &k->clock);
	bench_lanes52_kernels_measure(&k->lanes52, trial_scale, &k->clock);
	bench_crt_pow_kernels_measure(&k->paired, &k->vertical, &k->vertical_zmm, trial_scale,
				      &k->clock);
	struct bench_peak again;
	int out_of_range;
	do {
		bench_peak_measure(&again, &k->clock);
		bench_peak_keep_best(&k->peak, &again);
		k->ticks_per_cycle = bench_ticks_per_cycle(&k->clock);
		out_of_range = bench_peak_finish(&k->peak, k->ticks_per_cycle, err, errlen);
	} while (out_of_range && k->peak.timings < BENCH_PEAK_TIMINGS);
	if (out_of_range)
		return 1;
	const double tpc = k->ticks_per_cycle;
	if (k->clock.best_ticks != 0)
		fprintf(out, "\nrdtsc ticks per core cycle: %.3f (the best of %d chains of 4096 "
			"dependent adds, taken all through the run)\n", tpc, k->clock.samples);
	bench_peak_print(out, &k->peak);
	fprintf(out, "\n");
	bench_vec_kernels_print(out, &k->vec, tpc);
	fprintf(out, "\n");
	bench_mont_kernels_print(out, &k->mont, tpc, &k->peak);
	fprintf(out, "\n");
	bench_r52_kernels_print(out, &k->r52, tpc, &k->peak);
	fprintf(out, "\n");
	bench_lanes_kernels_print(out, &k->lanes, tpc, &k->peak);
	fprintf(out, "\n");
	if (BENCH_HAVE_X86_PEAKS) {
		bench_lanes52_kernels_print(out, &k->lanes52, tpc, &k->peak);
		fprintf(out, "\n");
	}
	bench_crt_pow_kernels_print(out, &k->paired, &k->vertical, &k->vertical_zmm, tpc);
	if (cannot) {
		snprintf(err, errlen, "--kernels: this build cannot time its kernels; the "
			 "tables need 64-bit chunks (the chunk64 and chunk64-asm builds)");
		return 1;
	}
	return 0;
}

void bench_kernels_json(struct json_writer *w, const struct bench_kernels *k)
{
	const struct bench_peak *p = &k->peak;
	json_kv_double(w, "ticks_per_cycle", k->clock.best_ticks ? k->ticks_per_cycle : NAN, 6);
	json_kv_int(w, "calibration_samples", k->clock.samples);
	json_kv_string(w, "ticks_unit", BENCH_HAVE_CORE_CYCLES ? "rdtsc" : "ns");
	json_kv_double(w, "trial_scale", k->trial_scale, 6);
	json_key(w, "trials");
	json_object_begin(w);
	json_kv_int(w, "vector", k->vec.trials);
	json_kv_int(w, "montgomery", k->mont.trials);
	json_kv_int(w, "radix52", k->r52.trials);
	json_kv_int(w, "lanes", k->lanes.trials);
	json_kv_int(w, "lanes52", k->lanes52.trials);
	json_kv_int(w, "paired", k->paired.trials);
	json_kv_int(w, "vertical", k->vertical.trials);
	json_kv_int(w, "vertical_zmm", k->vertical_zmm.trials);
	json_object_end(w);
	json_key(w, "peak");
	json_object_begin(w);
	json_kv_double(w, "mulx_per_cycle", p->mulx, 4);
	json_kv_string(w, "mulx_note", p->mulx_why);
	json_kv_double(w, "ifma_zmm_per_cycle", p->zmm, 4);
	json_kv_double(w, "ifma_ymm_per_cycle", p->ymm, 4);
	json_kv_double(w, "ifma_ymm_instructions_per_cycle", p->ymm_instructions, 4);
	json_kv_double(w, "ifma_per_cycle", bench_peak_ifma(p), 4);
	json_kv_string(w, "ifma_note", p->ifma_why);
	json_kv_double(w, "vpmuludq_per_cycle", p->vpmuludq, 4);
	json_kv_string(w, "vpmuludq_note", p->vpmuludq_why);
	json_kv_double(w, "vpmuludq_vpaddq_per_cycle", p->muladd, 4);
	json_kv_double(w, "vpmuludq_zmm_per_cycle", p->zmm_vpmuludq, 4);
	json_kv_double(w, "vpmuludq_vpaddq_zmm_per_cycle", p->zmm_muladd, 4);
	json_kv_string(w, "vpmuludq_zmm_note", p->zmm_vpmuludq_why);
	json_kv_double(w, "fma_per_cycle", p->fma, 4);
	json_kv_double(w, "fma_halves_per_cycle", p->fma_halves, 4);
	json_kv_string(w, "fma_note", p->fma_why);
	json_kv_double(w, "fma512_per_cycle", p->fma512, 4);
	json_kv_double(w, "fma512_halves_per_cycle", p->fma512_halves, 4);
	json_kv_string(w, "fma512_note", p->fma512_why);
	json_kv_double(w, "min", BENCH_PEAK_MIN, 4);
	json_kv_double(w, "max", BENCH_PEAK_MAX, 4);
	json_kv_int(w, "chains", BENCH_PEAK_CHAINS);
	json_kv_int(w, "trials", BENCH_PEAK_TRIALS);
	json_kv_int(w, "timings", p->timings);
	json_object_end(w);
	json_key(w, "montgomery");
	json_array_begin(w);
	bench_mont_kernels_json(w, &k->mont, k->ticks_per_cycle, p);
	json_array_end(w);
	json_key(w, "radix52");
	json_array_begin(w);
	bench_r52_kernels_json(w, &k->r52, k->ticks_per_cycle, p);
	json_array_end(w);
	json_key(w, "lanes");
	json_array_begin(w);
	bench_lanes_kernels_json(w, &k->lanes, k->ticks_per_cycle, p);
	json_array_end(w);
	json_key(w, "lanes52");
	json_array_begin(w);
	bench_lanes52_kernels_json(w, &k->lanes52, k->ticks_per_cycle, p);
	json_array_end(w);
	json_kv_string(w, "lanes52_note", k->lanes52.why);
	json_key(w, "lanes52_fma");
	json_array_begin(w);
	bench_lanes52_kernels_fma_json(w, &k->lanes52, k->ticks_per_cycle, p);
	json_array_end(w);
	json_kv_string(w, "lanes52_fma_note", k->lanes52.fma_why);
	json_key(w, "lanes52_fma512");
	json_array_begin(w);
	bench_lanes52_kernels_fma512_json(w, &k->lanes52, k->ticks_per_cycle, p);
	json_array_end(w);
	json_kv_string(w, "lanes52_fma512_note", k->lanes52.fma512_why);
	json_key(w, "paired");
	json_array_begin(w);
	bench_crt_pow_kernels_json(w, &k->paired, "mulx", k->ticks_per_cycle);
	json_array_end(w);
	json_key(w, "vertical");
	json_array_begin(w);
	bench_crt_pow_kernels_json(w, &k->vertical, "vpmuludq_ymm", k->ticks_per_cycle);
	json_array_end(w);
	json_key(w, "vertical_zmm");
	json_array_begin(w);
	bench_crt_pow_kernels_json(w, &k->vertical_zmm, "vpmuludq_zmm", k->ticks_per_cycle);
	json_array_end(w);
}
