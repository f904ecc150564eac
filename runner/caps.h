/* SPDX-License-Identifier: GPL-2.0 */
/* Loading with fewer capabilities than root's (caps.c). */
#ifndef __CAPS_H
#define __CAPS_H

int caps_narrow(const char *names, void (*say)(const char *fmt, ...));
int caps_restore(void);

#endif
