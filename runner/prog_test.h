/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's modes that load one program: pass, load, fail, stress. */
#ifndef __PROG_TEST_H
#define __PROG_TEST_H

/*
 * argv as the loader's: REPORT PROG OBJECT MODE [ARGS...]; @path is
 * OBJECT's path. 0 if the test passes, 1 if not (reported).
 */
int run_prog_test(const char *path, int argc, char **argv);

#endif
