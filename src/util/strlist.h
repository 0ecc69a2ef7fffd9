/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Comma-separated lists of names, as environment variables give them ("tp_btf,raw_tp"). */
#ifndef MB_STRLIST_H
#define MB_STRLIST_H

#include <stdbool.h>

/* Whether @list (may be NULL) has @item as one whole item: "tp" is not in "tp_btf". */
bool mb_list_has(const char *list, const char *item);

#endif
