#!/usr/bin/env bash
# The project's own tests: the main job must pass, and the harness must turn
# red, with a message only that fault produces, on a wrong expected log, a
# missing program, a wrong global, a failing program that loads, a changed
# verdict or message of 6.1's test_verifier, a file of upstream's selftests
# with a wrong message, a crashing or hanging loader, a failed KUnit
# expectation, a kernel splat, a graph object leaked by a free path; with
# exit 2 on a message stated twice (__msg and a log) or a log of no program,
# a step failing unforeseen and a patch that does not apply (leaving no
# earlier results). Options in any order, a conflicting one refused before
# any build, a filter that names nothing before the kernel build (and a
# benchmark's own test name let through); a name filter runs exactly one
# selftest (and a rerun leaves the build out); --compare fails on a changed
# verdict and on a program new to the baseline until --bless; a tree other
# than patches/BASE warns; run.json records each run; the README and --help
# agree; every hand-written mutant applies; shellcheck passes the
# harness's shell.
#
# The failure scenarios run a tampered copy of the repository against the
# same WORK_DIR, so they reuse the kernel build and cost one guest boot each.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"

passed=0 failed=0
pass() { printf 'ok: %s\n' "$1"; passed=$((passed + 1)); }
fail() { printf 'FAIL: %s\n' "$1"; failed=$((failed + 1)); }

# run_json_error RUN.JSON STEP TEXT: the run recorded an error (exit 2) at
# STEP, its exit reason containing TEXT.
run_json_error() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r['status'] == 'error' and r['exit_code'] == 2 and r['step'] == sys.argv[2], r
assert sys.argv[3] in r['exit_reason'], r
PY
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# derive_manifest_test.py builds BPF objects: clang and bpftool first.
"$REPO/scripts/install_deps.sh"
# (check_results.py's unit tests read consoles with kunit.py's parser of the tree
# the main job prepares: after it, below)
for script in compare_stats derive_manifest first_patches gen_mutants manifest select_tests \
	test_verifier_expected upstream_manifest; do
	log "unit tests of scripts/$script.py"
	if python3 "$REPO/tests/${script}_test.py" 2>"$tmp/unit.log"; then
		pass "$script.py unit tests"
	else
		cat "$tmp/unit.log"
		fail "$script.py unit tests"
	fi
done

log "shellcheck: warnings and errors of the harness's shell"
if shellcheck -x -s bash -S warning "$REPO/run_tests.sh" "$REPO"/scripts/*.sh \
	"$REPO/tests/run.sh" "$REPO/.ci/run" >"$tmp/shellcheck.log" 2>&1; then
	pass "shellcheck of run_tests.sh, scripts/*.sh, tests/run.sh, .ci/run"
else
	cat "$tmp/shellcheck.log"
	fail "shellcheck of the harness's shell (above)"
fi

log "main job: ./run_tests.sh --compare tests/verifier-stats.csv"
if "$REPO/run_tests.sh" --compare "$REPO/tests/verifier-stats.csv" | tee "$tmp/main.log"; then
	pass "./run_tests.sh"
else
	fail "./run_tests.sh"
fi

log "unit tests of scripts/check_results.py (kunit.py's parser of the tree)"
if KUNIT_TOOL=$SRC_DIR/tools/testing/kunit python3 "$REPO/tests/check_results_test.py" 2>"$tmp/unit.log"; then
	pass "check_results.py unit tests"
else
	cat "$tmp/unit.log"
	fail "check_results.py unit tests"
fi
main_counts=$(grep -E '^results: ' "$tmp/main.log" | tail -n 1 || true)
# Every hand-written mutant applies to the tree the main job tested: a
# stale one would stop --mutants at its turn, a pass nobody runs in CI.
stale=$(for m in "$REPO"/mutants/*.diff; do
	git -C "$SRC_DIR" apply --check "$m" 2>/dev/null || basename "$m"
done)
if [ -z "$stale" ]; then
	pass "every mutants/*.diff applies to the patched tree"
else
	fail "mutants that no longer apply to the patched tree: $(echo $stale)"
fi
# ktap.txt is KTAP that kunit.py's own parser reads back to the same count.
ktap_ran=$(python3 "$SRC_DIR/tools/testing/kunit/kunit.py" parse "$RESULTS_DIR/ktap.txt" 2>&1 |
	sed -n 's/.*Testing complete\. Ran \([0-9]*\) tests.*/\1/p' | tail -n 1)
if [ -n "$ktap_ran" ] && [[ $main_counts == "results: $ktap_ran passed, 0 failed"* ]]; then
	pass "ktap.txt: kunit.py parse reads $ktap_ran tests, as the run reported"
else
	fail "ktap.txt: kunit.py parse read '${ktap_ran:-nothing}', the run said '$main_counts'"
fi
# The statistics are in veristat's schema: the tree's own veristat compares them.
log "veristat -C reads the baseline and the run's statistics"
if gcc -O2 -o "$tmp/veristat" "$SRC_DIR/tools/testing/selftests/bpf/veristat.c" \
	-I"$SRC_DIR/tools/include" -lbpf -lelf -lz 2>"$tmp/veristat.log" &&
	"$tmp/veristat" -C "$REPO/tests/verifier-stats.csv" "$RESULTS_DIR/verifier-stats.csv" \
		>>"$tmp/veristat.log" 2>&1; then
	pass "veristat -C tests/verifier-stats.csv verifier-stats.csv"
else
	tail -n 5 "$tmp/veristat.log"
	fail "veristat -C cannot compare tests/verifier-stats.csv with the run's statistics"
fi
if python3 - "$RESULTS_DIR/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r['status'] == 'passed' and r['step'] == 'check' and r['exit_code'] == 0, r
assert r['base_version'] and r['tree_id'] and r['toolchain']['clang'], r
assert set(r['steps']) >= {'deps', 'tree', 'build', 'selftests', 'exec', 'check'}, r['steps']
PY
then
	pass "run.json: the main job's record (passed, base, tree, toolchain, steps)"
else
	fail "run.json: the main job's record is incomplete"
fi

# Options are checked before anything runs.
if "$REPO/run_tests.sh" --compare /no/such.csv >"$tmp/nocsv.log" 2>&1; then
	fail "--compare /no/such.csv: passed"
elif [ "$?" = 2 ] && grep -q 'error: --compare /no/such.csv: no such file' "$tmp/nocsv.log"; then
	pass "--compare /no/such.csv: refused at once (exit 2)"
else
	fail "--compare /no/such.csv: not refused with its own message and exit 2"
fi

# Options in any order; whatever a mode cannot take is refused at once,
# with the word named, before any build (never dropped).
while IFS='|' read -r opts want; do
	# shellcheck disable=SC2086	# the options are words
	if "$REPO/run_tests.sh" $opts </dev/null >"$tmp/opts.log" 2>&1; then
		fail "./run_tests.sh $opts: passed"
	elif [ "$?" = 2 ] && grep -qF "error: $want" "$tmp/opts.log"; then
		pass "./run_tests.sh $opts: refused at once (exit 2): $want"
	else
		fail "./run_tests.sh $opts: expected exit 2 and 'error: $want', got: $(tail -1 "$tmp/opts.log")"
	fi
done <<'OPTIONS'
--frobnicate|unknown option --frobnicate
--debug --mutants|--debug does not go with --mutants
--mutants --debug|--debug does not go with --mutants
--each-patch --fuzz|--each-patch and --fuzz: one mode a run
--bless --fuzz|--bless does not go with --fuzz
--mutants no-such-mutant|no mutant matches mutants/no-such-mutant.diff
one two|a test run takes at most 1 argument(s): one two
OPTIONS

# The README names every option and environment variable of --help, and
# its environment list names no other.
"$REPO/run_tests.sh" --help >"$tmp/help.txt"
if python3 - "$tmp/help.txt" "$REPO/README.md" <<'PY'
import re, sys
help, readme = open(sys.argv[1]).read(), open(sys.argv[2]).read()
env_help = set(re.findall(r'\b([A-Z][A-Z_]{2,})\b(?= \(|,|$)', help.split('environment:', 1)[1], re.M))
env_readme = set(re.findall(r'`([A-Z][A-Z_]{2,})`', readme.split('Environment: ', 1)[1].split('\n\n', 1)[0]))
opts = {o for o in re.findall(r'--[a-z][a-z-]+', help) if f'`{o}' not in readme}
bad = [f'--help has {e}, the README\'s environment list not' for e in sorted(env_help - env_readme)]
bad += [f'the README\'s environment list has {e}, --help not' for e in sorted(env_readme - env_help)]
bad += [f'the README does not name {o}' for o in sorted(opts)]
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
then
	pass "README and --help name the same options and environment"
else
	fail "README and --help disagree (above)"
fi

if UPSTREAM_SELFTESTS=/no/such "$REPO/run_tests.sh" >"$tmp/noupstream.log" 2>&1; then
	fail "UPSTREAM_SELFTESTS=/no/such: passed"
elif [ "$?" = 2 ] && grep -q 'error: UPSTREAM_SELFTESTS must name' "$tmp/noupstream.log"; then
	pass "UPSTREAM_SELFTESTS=/no/such: refused at once (exit 2)"
else
	fail "UPSTREAM_SELFTESTS=/no/such: not refused with its own message and exit 2"
fi

# A build directory built from another tree state than the one tree.sh
# restored mtimes for (here: the series without the harness commit) has
# the files that differ rebuilt, and the run stays green.
log "a build directory built from another tree state is brought up to date"
git -C "$SRC_DIR" rev-parse HEAD~1 >"$WORK_DIR/build/.built-from"
if "$REPO/run_tests.sh" spin_lock_counter >"$tmp/stale.log" 2>&1 &&
   grep -qE 'built from another tree state; [0-9]+ file\(s\) differ, rebuilding them' "$tmp/stale.log"; then
	pass "stale_build: the differing files were rebuilt and the run passed"
else
	tail -n 20 "$tmp/stale.log"
	fail "stale_build: not rebuilt, or the run failed"
fi

# --list before any run (no manifest in SELFTEST_OUT) lists the selftests
# from their objects, built without a kernel, and builds nothing else.
log "--list before a first run: the names, without a kernel build"
rm -rf "$WORK_DIR/list-selftests"
if SELFTEST_OUT="$tmp/list.out" "$REPO/run_tests.sh" --list 'spin_lock_*' >"$tmp/list.log" 2>&1 &&
   grep -qx 'selftest  spin_lock_counter (pass)' "$tmp/list.log" &&
   grep -q 'not listed before a first run: the programs of selftests/vmlinux/' "$tmp/list.log" &&
   ! grep -q 'kunit.py build' "$tmp/list.log" && [ ! -e "$tmp/list.out" ]; then
	pass "--list without a previous run: listed spin_lock_counter, built no kernel"
else
	tail -n 20 "$tmp/list.log"
	fail "--list without a previous run: no listing, or a build"
fi

# A filter that names no test is refused before the kernel is built
# (step filter); one that only a selftests/vmlinux/ source could name
# (bpf_obj_new is an identifier there), once that source is built.
while read -r glob step; do
	if "$REPO/run_tests.sh" "$glob" </dev/null >"$tmp/nomatch.log" 2>&1; then
		fail "filter $glob: passed"
	elif [ "$?" = 2 ] && grep -qF "error: cannot select the tests: $glob names no test" "$tmp/nomatch.log" &&
	     { [ "$step" != filter ] || ! grep -q 'kunit.py build' "$tmp/nomatch.log"; } &&
	     run_json_error "$RESULTS_DIR/run.json" "$step" "$glob"; then
		pass "filter $glob: refused at step $step (exit 2)"
	else
		tail -n 5 "$tmp/nomatch.log"
		fail "filter $glob: not refused at step $step with its own message"
	fi
done <<'GLOBS'
no_such_test filter
bpf_graph_list.no_such_case filter
bpf_obj_new selftests
GLOBS

# A name that only a MANIFEST gives (the benchmark's) is left to it.
log "--rbtree-bench 100: a test its own MANIFEST names runs"
if "$REPO/run_tests.sh" --rbtree-bench 100 </dev/null >"$tmp/bench.log" 2>&1 &&
   grep -qE '^ +100 +all .*\(ns/op\)' "$tmp/bench.log"; then
	pass "--rbtree-bench 100: ran and printed its figures"
else
	tail -n 5 "$tmp/bench.log"
	fail "--rbtree-bench 100: no figures"
fi

# A name selects exactly that selftest. Nothing changed since the last
# run, so the build is left out (kunit_fails and splat below show that a
# changed KUnit file is built).
log "a filter runs exactly the named selftest, without a build"
if "$REPO/run_tests.sh" spin_lock_counter >"$tmp/filter.log" 2>&1 &&
   grep -qx 'results: 1 passed, 0 failed, 0 skipped' "$tmp/filter.log"; then
	pass "filter: ./run_tests.sh spin_lock_counter ran it alone"
else
	tail -n 20 "$tmp/filter.log"
	fail "filter: ./run_tests.sh spin_lock_counter did not run exactly it"
fi
if grep -q 'is built from this tree and config, nothing to do' "$tmp/filter.log"; then
	pass "rerun: the build was left out"
else
	fail "rerun: nothing changed, but the kernel was built again"
fi

# --compare fails when a program's verdict changed against the baseline.
log "--compare must fail on a changed verdict"
printf 'file_name,prog_name,verdict,total_insns,total_states,peak_states\n%s\n' \
	'spin_lock.bpf.o,spin_lock_counter,failure,1,1,1' >"$tmp/base.csv"
if "$REPO/run_tests.sh" --compare "$tmp/base.csv" spin_lock_counter >"$tmp/compare.log" 2>&1; then
	fail "compare: a changed verdict passed"
elif grep -qE '^spin_lock_counter +VERDICT failure -> success' "$tmp/compare.log"; then
	pass "compare: failed with 'spin_lock_counter VERDICT failure -> success'"
else
	tail -n 20 "$tmp/compare.log"
	fail "compare: output lacks the changed verdict"
fi

# The baseline guards: a program it lacks fails the run until
# --bless --compare writes it in; then the same run passes.
log "--compare: a program new to the baseline fails until blessed"
printf 'file_name,prog_name,verdict,total_insns,total_states,peak_states\n' >"$tmp/gate.csv"
if "$REPO/run_tests.sh" --compare "$tmp/gate.csv" spin_lock_counter >"$tmp/gate.log" 2>&1 ||
   ! grep -qE '^spin_lock_counter +new: success' "$tmp/gate.log"; then
	tail -n 5 "$tmp/gate.log"
	fail "baseline gate: a program not in the baseline passed, or was not named new"
elif ! "$REPO/run_tests.sh" --bless --compare "$tmp/gate.csv" spin_lock_counter >"$tmp/gate.log" 2>&1 ||
   ! grep -q '^spin_lock\.bpf\.o,spin_lock_counter,success,' "$tmp/gate.csv" ||
   ! "$REPO/run_tests.sh" --compare "$tmp/gate.csv" spin_lock_counter >"$tmp/gate.log" 2>&1; then
	tail -n 5 "$tmp/gate.log"
	fail "baseline gate: --bless --compare did not admit the new program"
else
	pass "baseline gate: a new program failed --compare until --bless --compare wrote it in"
fi

# Copy the repository's files (tracked or new, not ignored) into $tmp/$1.
copy_repo() {
	mkdir -p "$tmp/$1"
	(cd "$REPO" && git ls-files -co --exclude-standard -z |
		xargs -0 cp --parents -t "$tmp/$1")
}

# scenario NAME EXPECTED-MESSAGE [EXIT]: run the tampered copy, want exit
# status EXIT (default 1, a test failed; 2: the harness could not run the
# tests) and EXPECTED-MESSAGE (an extended regex) in its output.
scenario() {
	local name=$1 want=$2 want_rc=${3:-1} out=$tmp/$1.log rc=0
	log "harness must fail: $name"
	# a few of test_verifier's cases: the main job runs them all
	SELFTEST_OUT="$tmp/$name.out" RESULTS_DIR="$tmp/$name.results" TEST_VERIFIER_CASES=0-9 \
		"$tmp/$name/run_tests.sh" >"$out" 2>&1 || rc=$?
	if [ "$rc" != "$want_rc" ]; then
		tail -n 30 "$out"
		fail "$name: expected exit $want_rc, actual $rc"
	elif ! grep -qE -- "$want" "$out"; then
		tail -n 30 "$out"
		fail "$name: output lacks '$want'"
	else
		pass "$name: failed with '$want'"
	fi
}

# Tamper with FILE in copy NAME by running sed SCRIPT; the edit must take.
tamper() {
	local name=$1 file=$2 script=$3
	cp "$tmp/$name/$file" "$tmp/$name/$file.orig"
	sed -i "$script" "$tmp/$name/$file"
	! cmp -s "$tmp/$name/$file" "$tmp/$name/$file.orig" ||
		die "tamper $name: sed '$script' did not change $file"
	rm "$tmp/$name/$file.orig"
}

# A tree other than the one patches/BASE names: a warning naming both, and
# the run goes on.
copy_repo other_base
tamper other_base patches/BASE 's/^version .*/version 6.1.0-0/'
if SELFTEST_OUT="$tmp/other_base.out" RESULTS_DIR="$tmp/other_base.results" \
	"$tmp/other_base/run_tests.sh" spin_lock_counter >"$tmp/other_base.log" 2>&1 &&
   grep -q 'warning: the series is made for linux-source-6.1 6.1.0-0 (sha256 [0-9a-f]*); this tree is ' \
	"$tmp/other_base.log"; then
	pass "other_base: the run warned, naming both bases, and went on"
else
	tail -n 20 "$tmp/other_base.log"
	fail "other_base: no warning, or the run failed"
fi

# A test_verifier case whose signature differs from what
# tests/test_verifier/ expects: here a listed change the series does not make.
copy_repo tv_change
printf '\n# a change the series does not make\n0/p\t%s\t0001\tFAIL made up\n' \
	"$(sed -n 's/^0\t.\t//p' "$SELFTEST_OUT/test_verifier/cases")" \
	>>"$tmp/tv_change/tests/test_verifier/changes.txt"
scenario tv_change 'FAILED: bpf_test_verifier\.tv_verdict\.0/p .*: FAIL'

copy_repo wrong_log
echo "this line is not in any verifier log" >"$tmp/wrong_log/expected-logs/spin_lock_missing_unlock.log"
scenario wrong_log "expected: this line is not in any verifier log"

# A {{ }} pattern in an expected log spans only what it says.
copy_repo wrong_pattern
echo 'Unreleased reference id={{[0-9]+}} alloc_insn={{[a-z]+}}' \
	>"$tmp/wrong_pattern/expected-logs/obj_new_leak.log"
scenario wrong_pattern 'expected: Unreleased reference id=\{\{\[0-9\]\+\}\} alloc_insn=\{\{\[a-z\]\+\}\}'

# An annotated function that is not a program (no SEC).
copy_repo missing_prog
tamper missing_prog selftests/progs/spin_lock_fail.bpf.c \
	's|^char _license.*|__failure int no_such_program(void)\n{\n\treturn 0;\n}\n\n&|'
scenario missing_prog "program no_such_program not found"

copy_repo wrong_global
tamper wrong_global selftests/progs/spin_lock.bpf.c \
	's/__global_eq(counter_after, 3)/__global_eq(counter_after, 4)/'
scenario wrong_global "FAIL: expected counter_after == 4, actual 3"

copy_repo fail_loads
tamper fail_loads selftests/progs/spin_lock.bpf.c \
	's/^__success __retval(0) __global_eq(counter_after, 3).*/__failure/'
scenario fail_loads "spin_lock_counter: FAIL: expected the load to fail, but it succeeded"

copy_repo wrong_msg
tamper wrong_msg selftests/vmlinux/rbtree_annotated.bpf.c \
	's/__msg("Unreleased reference")/__msg("Unreleased reference id=0")/'
scenario wrong_msg "FAIL: __msg 2 not found in the log after the previous one"

# A file of upstream's selftests, dropped into vmlinux/ under its own name
# (NAME.c), runs as NAME:PROGRAM next to the suite's programs of the same
# names; here with a wrong __msg, which it must report under that name.
copy_repo upstream_file
cp "$tmp/upstream_file/selftests/vmlinux/rbtree_annotated.bpf.c" \
	"$tmp/upstream_file/selftests/vmlinux/rbtree_fail.c"
tamper upstream_file selftests/vmlinux/rbtree_fail.c \
	's/__msg("Unreleased reference")/__msg("Unreleased reference id=0")/'
scenario upstream_file "rbtree_fail:annotated_new_leaked: FAIL: __msg 2 not found in the log"

# A check after the run of a program that is not run: no manifest, exit 2.
copy_repo bad_annotation
tamper bad_annotation selftests/progs/spin_lock.bpf.c \
	's/^__success __retval(0) \(__global_eq(counter_after, 3)\)/__success \1/'
scenario bad_annotation "spin_lock_counter: checks after the run need __retval" 2

copy_repo loader_crash
tamper loader_crash runner/loader.c \
	's|^\tmount_sysfs();$|\tif (!strcmp(argv[2], "spin_lock_counter"))\n\t\tabort();\n&|'
scenario loader_crash "killed by signal 6"

# A loader that hangs is killed after the bridge's timeout (TEST_TIMEOUT,
# here 45 s, not the default: the knob works without a kernel rebuild; it
# must stay above the slowest selftest's time); the run goes on.
copy_repo loader_hang
tamper loader_hang runner/loader.c \
	's|^#include "bench.h"$|#include <unistd.h>\n&|; s|^\tmount_sysfs();$|\tif (!strcmp(argv[2], "spin_lock_counter"))\n\t\tpause();\n&|'
TEST_TIMEOUT=45 scenario loader_hang "spin_lock_counter: timed out after 45 s, killed"
if grep -qE '^results: [0-9]{3} passed, 1 failed' "$tmp/loader_hang.log"; then
	pass "loader_hang: the tests after it still ran"
else
	fail "loader_hang: the tests after it did not all run"
fi

# A step that fails where nobody foresaw it (here the initramfs packer)
# stops the run with exit 2, and run.json names the step (the ERR trap).
copy_repo err_trap
tamper err_trap scripts/pack_initramfs.sh 's|^out=\$1$|false\n&|'
scenario err_trap "error: unexpected failure at run_tests.sh line [0-9]+ in step selftests" 2
if run_json_error "$tmp/err_trap.results/run.json" selftests 'in step selftests'; then
	pass "err_trap: run.json says error at step selftests"
else
	fail "err_trap: run.json does not name the step"
fi

# One source per expected message: a log beside a program's __msg, and a
# log of no failing program, stop the selftests' build (exit 2).
copy_repo both_sources
echo 'Unreleased reference' >"$tmp/both_sources/expected-logs/callback_leaks_subprog_object.log"
echo 'no program has this log' >"$tmp/both_sources/expected-logs/no_such_program.log"
scenario both_sources 'callback_leaks_subprog_object: both __msg and [./]*expected-logs/callback_leaks_subprog_object\.log; keep one' 2
if grep -q 'expected-logs/no_such_program.log: no failing program no_such_program (an orphan)' \
	"$tmp/both_sources.log"; then
	pass "both_sources: the orphan log was named too"
else
	fail "both_sources: the orphan log was not named"
fi

# The next three change the kernel: each costs an incremental build.
copy_repo kunit_fails
tamper kunit_fails kunit/bpf_list_kunit.c \
	's|(size_t)n);$|(size_t)n + 1);|'
scenario kunit_fails "Expected list_count_nodes\(&v\.head\) == \(size_t\)n \+ 1"

copy_repo splat
tamper splat kunit/rb_cached_kunit.c \
	's|^static struct kunit_case .*|static void deliberate_splat(struct kunit *test)\n{\n\tWARN(1, "tests/run.sh: a deliberate splat");\n}\n\n&\n\tKUNIT_CASE(deliberate_splat),|'
scenario splat "kernel splat: .*WARNING: .* at kernel/bpf/graph_kunit/rb_cached_kunit\.c"
if grep -q 'deliberate_splat (kernel/bpf/graph_kunit/rb_cached_kunit\.c:[0-9]*)' \
	"$tmp/splat.results/oops.txt" 2>/dev/null; then
	pass "splat: oops.txt has the trace decoded to file and line"
else
	fail "splat: no decoded trace in oops.txt"
fi

# A free path that forgets its nodes: the list and tree free paths stop
# freeing (their calls of the per-object free, as patch 13 writes them).
copy_repo leak
tamper leak patches/0013-*.patch 's|^+\t\t__bpf_obj_drop_impl((void \*)pos - root->node_offset, root->value_meta);$|+\t\t(void)pos;|'
scenario leak "graph object\(s\) not freed [0-9]+ ms after the object was closed"

# Runs last: it resets the shared tree to pristine; the next run reapplies
# the series and restores mtimes, so the kernel build stays incremental.
copy_repo bad_patch
mkdir -p "$tmp/bad_patch/patches"
cat >"$tmp/bad_patch/patches/9999-does-not-apply.patch" <<'EOF'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Nobody <nobody@example.org>
Subject: [PATCH] test: a patch whose context is not in the tree

---
 Makefile | 1 +
 1 file changed, 1 insertion(+)

diff --git a/Makefile b/Makefile
--- a/Makefile
+++ b/Makefile
@@ -1,3 +1,4 @@
 # this context line does not exist
+# neither does this one
 # nor this
 # nor this
--
2.39.5
EOF
# an earlier run's results, which an exit-2 run must not leave behind
mkdir -p "$tmp/bad_patch.results"
echo '[{"name": "stale", "status": "pass"}]' >"$tmp/bad_patch.results/tests.json"
scenario bad_patch "patch does not apply: patches/9999-does-not-apply.patch" 2
if [ ! -e "$tmp/bad_patch.results/tests.json" ] &&
   run_json_error "$tmp/bad_patch.results/run.json" tree 9999-does-not-apply.patch; then
	pass "bad_patch: no earlier results left; run.json says error at step tree, naming the patch"
else
	fail "bad_patch: stale results left behind, or run.json does not say why"
fi
if [ "$(git -C "$SRC_DIR" rev-parse HEAD)" = "$(git -C "$SRC_DIR" rev-parse pristine)" ] &&
   [ -z "$(git -C "$SRC_DIR" status --porcelain --untracked-files=no)" ]; then
	pass "bad_patch: tree left clean at pristine"
else
	fail "bad_patch: tree not clean at pristine"
fi

# Closing line: the main job's test counts plus the harness checks above.
read -r kpass kfail < <(printf '%s\n' "$main_counts" |
	sed -nE 's/^results: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p;t;s/.*/0 1/p')
echo "harness checks: $passed passed, $failed failed; main job $main_counts"
echo "tests: $((passed + kpass)) passed, $((failed + kfail)) failed"
[ "$failed" = 0 ] && [ "$kfail" = 0 ]
