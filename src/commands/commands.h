/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The subcommands: mapbench VERB ... runs mb_cmd_VERB(argc, argv), argv[1] being VERB. */
#ifndef MB_COMMANDS_H
#define MB_COMMANDS_H

int mb_cmd_sweep(int argc, char **argv);
int mb_cmd_compare(int argc, char **argv);
int mb_cmd_plot(int argc, char **argv);
int mb_cmd_import(int argc, char **argv);
int mb_cmd_history(int argc, char **argv);
int mb_cmd_gate(int argc, char **argv);
int mb_cmd_trend(int argc, char **argv);
int mb_cmd_report(int argc, char **argv);

struct mb_cli;
/* The history a verb reads or writes: --db, else MAPBENCH_DB; NULL (said, with @verb) if none. */
const char *mb_cmd_db(const struct mb_cli *cli, const char *verb);

/* mapbench --map-types: an exit status. */
int mb_cmd_map_types(const struct mb_cli *cli);

#endif
