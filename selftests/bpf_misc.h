/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A selftest's expectations, written next to its program as BTF decl tags.
 * scripts/derive_manifest.py turns them into the manifest; the loader reads
 * __msg and __log_level from the object in the guest. The first six and
 * __flag have the names and tags of upstream's tools/testing/selftests/bpf/progs/bpf_misc.h,
 * so programs written for upstream's test_loader run here unmodified.
 *
 *   __failure       the verifier must refuse the program: every __msg, in
 *                   order, and every line of expected-logs/PROG.log, if any
 *                   (written by ./run_tests.sh --bless)
 *   __msg(TEXT)     TEXT appears in the log after the previous __msg's match;
 *                   {{RE}} spans are POSIX extended regexes (numbers the
 *                   compiler chooses: "alloc_insn={{[0-9]+}}")
 *   __log_level(N)  load with verifier log level N (default: libbpf's, 1)
 *   __success       the program must load
 *   __retval(N)     ... and, run once with BPF_PROG_TEST_RUN, return N
 *   __description(TEXT)  what the test is about (upstream's; not checked)
 *   __flag(FLAG)    load with this BPF_F_* program flag too (upstream's), e.g.
 *                   BPF_F_TEST_STATE_FREQ: a state kept at every prune point
 *
 *   __caps_only(NAMES)  load with only these capabilities effective
 *                   ("bpf net_admin": a loader without CAP_PERFMON)
 *   __iter_attach(MAP, ERRNO)  with __success, an iter/bpf_map_elem
 *                   program: attaching it to MAP ends in ERRNO ("EACCES"),
 *                   or "0" (and the iterator is run)
 *   __value_bytes(MAP)  with __retval: MAP's key 0 is written from user
 *                   space before the run; after it, the bytes around its
 *                   special fields are checked through every syscall copy
 *   __tail_call(MAP, TARGET)  with __retval: the object's program TARGET
 *                   is loaded too and put at index 0 of its prog array MAP
 *                   before the run, so that tail calls through MAP are taken
 *   __replaces(TARGET, FUNC)  on an extension program (SEC("freplace/FUNC")):
 *                   it is loaded to replace the global function FUNC of
 *                   the object's program TARGET, which is loaded first
 *
 * Checks after the run (they need __retval):
 *   __global_eq(VAR, N)  global variable VAR of the object equals N
 *   __allocated(N)       N graph objects were allocated since the load
 *   __live(N)            N of them are not freed yet
 *
 * Other kinds of test of an object's programs:
 *   __stress(DRAIN, OPS)  run OPS times on every CPU, then DRAIN (stress.c)
 *   __failslab(MAX)       up to MAX loads, each with one allocation failed
 *                         (failslab.c); the test is failslab_OBJECT
 *   __mutants(SEED, N)    on _license: N mutants of each program of the
 *                         object (mutate.c); the test is mutate_OBJECT
 */
#ifndef __BPF_MISC_H
#define __BPF_MISC_H

#define __test_tag(text)	__attribute__((btf_decl_tag("comment:" text)))

#define __failure		__test_tag("test_expect_failure")
#define __success		__test_tag("test_expect_success")
#define __msg(text)		__test_tag("test_expect_msg=" text)
#define __log_level(n)		__test_tag("test_log_level=" #n)
#define __retval(n)		__test_tag("test_retval=" #n)
#define __description(text)	__test_tag("test_description=" text)
#define __flag(flag)		__test_tag("test_prog_flags=" #flag)
#define __caps_only(names)	__test_tag("test_caps_only=" names)
#define __iter_attach(map, err)	__test_tag("test_iter_attach=" #map " " err)
#define __value_bytes(map)	__test_tag("test_value_bytes=" #map)
#define __tail_call(map, prog)	__test_tag("test_tail_call=" #map " " #prog)
#define __replaces(prog, func)	__test_tag("test_replaces=" #prog " " #func)

#define __global_eq(var, n)	__test_tag("test_global=" #var "=" #n)
#define __allocated(n)		__test_tag("test_allocated=" #n)
#define __live(n)		__test_tag("test_live=" #n)

#define __stress(drain, ops)	__test_tag("test_stress=" #drain " " #ops)
#define __failslab(max)		__test_tag("test_failslab=" #max)
#define __mutants(seed, n)	__test_tag("test_mutants=" #seed " " #n)

/* Keep @expr alive: the compiler may not drop a value the test needs. */
#define __sink(expr)		asm volatile("" : "+g"(expr))

#endif
