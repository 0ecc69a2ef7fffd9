/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Sweep presets: the parameter sweeps of the kernel's run_bench_*.sh scripts (and of the
 * published figures they produced), as data. docs/sweeps.md lists where each comes from.
 */
#ifndef MB_PRESETS_H
#define MB_PRESETS_H

#define MB_PRESET_MAX_PARAMS	6
#define MB_PRESET_MAX_BENCHES	4
#define MB_PRESET_MAX_SERIES	2

struct mb_preset_param {
	const char *name;	/* an option of the benches, or a global one (producers) */
	const char *values;	/* in --param syntax */
};

/* Benches run with the same fixed options over the same parameters. */
struct mb_preset_series {
	const char *benches[MB_PRESET_MAX_BENCHES + 1];		/* NULL-terminated */
	const char *const *args;	/* fixed bench options: "--name", "value", ..., NULL */
	struct mb_preset_param params[MB_PRESET_MAX_PARAMS + 1];	/* .name NULL ends */
};

struct mb_preset {
	const char *name;
	const char *desc;
	const char *source;		/* what it reproduces */
	const char *const *globals;	/* global options unless given: "name", "value", ..., NULL */
	struct mb_preset_series series[MB_PRESET_MAX_SERIES + 1];	/* .benches[0] NULL ends */
	const char *plot_x, *plot_lines, *plot_metric;	/* plot's defaults */
};

extern const struct mb_preset mb_presets[];	/* .name NULL ends */

const struct mb_preset *mb_preset_find(const char *name);

#endif
