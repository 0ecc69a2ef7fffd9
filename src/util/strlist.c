// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <string.h>

#include "strlist.h"

bool mb_list_has(const char *list, const char *item)
{
	size_t len;

	if (!list || !item)
		return false;
	len = strlen(item);
	for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',') {
		if (strcspn(p, ",") == len && !strncmp(p, item, len))
			return true;
	}
	return false;
}
