/* SPDX-License-Identifier: GPL-2.0 */
/* The messages a test table of upstream's expects of a refused program (table_msgs.c). */
#ifndef __TABLE_MSGS_H
#define __TABLE_MSGS_H

int table_msgs(const char *dir, const char *test, const char **msgs, int max);

#endif
