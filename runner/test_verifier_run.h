/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __TEST_VERIFIER_RUN_H
#define __TEST_VERIFIER_RUN_H

/*
 * loader REPORT --test-verifier DIR: run DIR/test_verifier, one signature
 * per case variant (test_verifier_run.c). 0 if it ran to its summary.
 */
int run_test_verifier(const char *dir, void (*say)(const char *fmt, ...));

#endif
