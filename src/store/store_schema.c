// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The history's schema, the same on both back-ends but for their types: a row of runs per
 * result, its headline figure of each measured sample in samples, and schema_migrations,
 * which records each step applied. A new step goes at the end with the next version; a step
 * once released never changes.
 */
#include "store_backend.h"

#define RUNS_COLUMNS(ID, REAL)								\
	"CREATE TABLE runs (\n"								\
	"  id " ID ",\n"								\
	"  dedupe_key TEXT NOT NULL UNIQUE,\n"						\
	"  time TEXT NOT NULL,\n"							\
	"  end_time TEXT NOT NULL,\n"							\
	"  bench TEXT NOT NULL,\n"							\
	"  family TEXT NOT NULL,\n"							\
	"  params TEXT NOT NULL,\n"							\
	"  status TEXT NOT NULL,\n"							\
	"  kernel TEXT NOT NULL,\n"							\
	"  machine_class TEXT NOT NULL,\n"						\
	"  hostname TEXT NOT NULL,\n"							\
	"  version TEXT NOT NULL,\n"							\
	"  git_revision TEXT NOT NULL,\n"						\
	"  figure TEXT,\n"								\
	"  unit TEXT,\n"								\
	"  higher_is_better INTEGER NOT NULL,\n"					\
	"  mean " REAL ",\n"								\
	"  median " REAL ",\n"								\
	"  stddev " REAL ",\n"								\
	"  cv " REAL ",\n"								\
	"  nsamples INTEGER NOT NULL,\n"						\
	"  noisy INTEGER NOT NULL,\n"							\
	"  result_json TEXT NOT NULL,\n"						\
	"  context_json TEXT NOT NULL\n"						\
	");\n"										\
	"CREATE INDEX runs_bench_time ON runs (bench, time);\n"				\
	"CREATE INDEX runs_time ON runs (time);\n"					\
	"CREATE TABLE samples (\n"							\
	"  run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,\n"		\
	"  idx INTEGER NOT NULL,\n"							\
	"  value " REAL ",\n"								\
	"  PRIMARY KEY (run_id, idx)\n"							\
	");\n"

const struct mb_store_migration mb_store_migrations[] = {
	{
		.version = 1,
		.sqlite = RUNS_COLUMNS("INTEGER PRIMARY KEY AUTOINCREMENT", "REAL"),
		.postgres = RUNS_COLUMNS("BIGSERIAL PRIMARY KEY", "DOUBLE PRECISION"),
	},
};

const int mb_store_nr_migrations = sizeof(mb_store_migrations) / sizeof(*mb_store_migrations);

const char mb_store_run_columns[] =
	"id, time, bench, params, kernel, machine_class, hostname, version, git_revision, "
	"figure, unit, higher_is_better, mean, median, stddev, cv, noisy, result_json";
