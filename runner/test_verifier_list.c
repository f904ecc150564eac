// SPDX-License-Identifier: GPL-2.0
/*
 * 6.1's test_verifier as it is, with one more option: "--list" prints its
 * cases, one a line: index, "u" if it also runs unprivileged (else "-"),
 * description. The harness runs it on the host to know what the guest's
 * run must report (test_verifier_run.c, scripts/test_verifier_expected.py).
 */
#define main test_verifier_main
#include "test_verifier.c"
#undef main

int main(int argc, char **argv)
{
	int i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < ARRAY_SIZE(tests); i++)
			printf("%d\t%c\t%s\n", i, test_as_unpriv(&tests[i]) ? 'u' : '-',
			       tests[i].descr);
		return 0;
	}
	return test_verifier_main(argc, argv);
}
