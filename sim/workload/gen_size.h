/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gen_size.h - the size `idlesim gen` would write, and the bound it keeps to.
 *
 * A generator's output grows with the duration and the CPU count times the wakeup rate: a
 * typo (--interval-us 1 instead of 1000, --duration-s 36000) asks for gigabytes. gen
 * estimates the size before writing anything and refuses more than GEN_MAX_BYTES unless
 * --force (docs/cli.md, "idlesim gen").
 */
#ifndef IDLESIM_GEN_SIZE_H
#define IDLESIM_GEN_SIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/error.h"
#include "sim/workload/gen.h"
#include "sim/workload/workloads.h"

#define GEN_MAX_BYTES (INT64_C(1) << 30) /* 1 GiB */

/*
 * 0 if the output of the open-loop generator c (gen_write), or of the model w with its
 * parameters (workload_write_trace), is estimated within GEN_MAX_BYTES, or force is set;
 * otherwise -1 with an input error that states the estimate, the bound and --force. Also
 * -1 with the error of the generator itself if it fails.
 */
int gen_size_check(const struct gen_config *c, bool force, struct sim_error *err);
int gen_size_check_model(const struct workload *w, const int64_t *params,
			 const struct wl_timers *extra, int64_t duration_ns, uint64_t seed,
			 const struct trace_header *hdr, bool force, struct sim_error *err);

#endif
