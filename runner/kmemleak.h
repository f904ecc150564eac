/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's --kmemleak mode (debug kernels; kunit/kmemleak_*_kunit.c). */
#ifndef __KMEMLEAK_H
#define __KMEMLEAK_H

/*
 * begin: forget the leak suspects from boot; end: fail (1) on any suspect
 * allocated since jiffies @since.
 */
int kmemleak(const char *phase, const char *since);

#endif
