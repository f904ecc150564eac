#!/usr/bin/env bash
# Build Debian's linux-source-6.1 with patches/ applied and run the project's
# KUnit suites and BPF selftests in a QEMU guest with kunit.py.
#
#   ./run_tests.sh [--debug] [--bless] [GLOB]
#   ./run_tests.sh --mutants [GLOB]       (scripts/mutants.sh)
#   ./run_tests.sh --each-patch [--bless] [FIRST[-LAST]]   (scripts/each_patch.sh)
#   ./run_tests.sh --stress-bench [OPS]   (scripts/stress_bench.sh)
#   ./run_tests.sh --fuzz [--debug] [SEEDS [COUNT]]   (scripts/fuzz.sh)
#   ./run_tests.sh --rbtree-bench [N,N...]   (scripts/rbtree_bench.sh)
#   ./run_tests.sh --test-verifier-baseline [OUT]   (scripts/test_verifier_baseline.sh)
#
# Exits 0 when every test ran and passed, 1 when a test failed, 2 when the
# harness could not run the tests (a package, a patch, the build, the boot).
# See README.md.
set -euo pipefail
REPO=$(cd "$(dirname "$0")" && pwd)

usage() {
	cat <<EOF
usage: $0 [--debug] [--bless] [--compare BASE.csv] [--list] [GLOB]
       $0 --mutants [GLOB]
       $0 --each-patch [--bless] [FIRST[-LAST]]
       $0 --stress-bench [OPS]
       $0 --fuzz [--debug] [SEEDS [COUNT]]
       $0 --rbtree-bench [N,N...]
       $0 --test-verifier-baseline [OUT]
  GLOB      run only the selftests whose name matches GLOB, or else the KUnit
            suites/tests matching it (kunit.py filter_glob, SUITE[.CASE]);
            a GLOB that names no test is refused before the kernel build
  --list    list the KUnit suites and the selftests (matching GLOB) of the
            last build (before a first run: of the sources, no kernel built),
            and stop
  --debug   add kunitconfig.debug (KASAN, kmemleak, lockdep)
  --bless   rewrite expected-logs/ from the verifier messages of this run
  --compare BASE.csv  compare the verifier statistics of this run with
            BASE.csv (e.g. tests/verifier-stats.csv, veristat's CSV schema);
            fails on a changed verdict, a missing or a new program;
            with --bless, write this run's statistics into BASE.csv
  --mutants run the suite once per mutant in mutants/ (GLOB: mutant names)
            and print the mutation score
  --each-patch  build every prefix of the series (or patches FIRST..LAST)
            and run the tests that apply to it, one line per patch
  --stress-bench  the stress selftest alone with 1, 2 and 4 vCPUs: ops/s
  --fuzz    the long run of mutated selftests and generated programs
            (SEEDS seeds, COUNT mutants each)
  --rbtree-bench  the BPF rbtree against the same tree in C: ns/op, ratio
  --test-verifier-baseline  build the pristine kernel and record what 6.1's
            test_verifier reports there (tests/test_verifier/baseline-VERSION.txt)
environment: WORK_DIR (default .work), SELFTEST_OUT, RESULTS_DIR, KUNIT_TIMEOUT
  (seconds for the whole guest run, default 300; 900 with --debug),
  GUEST_CPUS (default 2), MANIFEST (another selftest manifest than the one
  derived from the objects), MANIFEST_EDIT (a command that rewrites the
  derived manifest, stdin to stdout: the fuzz run and the benchmarks),
  UPSTREAM_SELFTESTS (tools/testing/selftests/bpf of a Linux 6.3 tree: run
  its linked-list and rbtree selftests too), KERNEL_ARGS (more of the
  guest kernel's command line), LINUX_SOURCE_TARBALL (another kernel
  tarball than Debian's), CCACHE (0: build without ccache where it is
  installed), TEST_VERIFIER_CASES (FIRST-LAST: only those
  cases of 6.1's test_verifier), TEST_TIMEOUT (seconds a selftest may
  run, default 60; 180 with --debug), QEMU_ARGS (more QEMU options, e.g.
  "-enable-kvm -cpu host" where /dev/kvm is usable), MUTANTS_DIR
  (--mutants: another catalogue than mutants/, e.g. scripts/gen_mutants.py's),
  MUTANTS_RESUME (1: go on with the verdicts of an earlier --mutants pass),
  MUTANT_TIMEOUT (--mutants: seconds for each mutant's guest run, default 400)
EOF
}

# All options first, in any order; then the mode runs with the flags it
# takes, and a flag it does not take is refused, never dropped.
refuse() { echo "error: $*" >&2; exit 2; }
debug=0 bless=0 glob='' compare='' list=0 mode='' args=()
while [ $# -gt 0 ]; do
	case $1 in
	--debug) debug=1 ;;
	--bless) bless=1 ;;
	--list) list=1 ;;
	--compare)
		[ $# -ge 2 ] || refuse "--compare needs a baseline CSV"
		shift
		compare=$1
		[ -r "$compare" ] || refuse "--compare $compare: no such file"
		;;
	--mutants | --each-patch | --stress-bench | --fuzz | --rbtree-bench | --test-verifier-baseline)
		[ -z "$mode" ] || refuse "$mode and $1: one mode a run"
		mode=$1 ;;
	-h | --help) usage; exit 0 ;;
	-*) refuse "unknown option $1 (see --help)" ;;
	*) args+=("$1") ;;
	esac
	shift
done
# flags: the flags a mode takes; most: how many arguments
takes() {
	local flags=$1 most=$2 flag
	for flag in debug bless list compare; do
		if [ "${!flag}" != 0 ] && [ -n "${!flag}" ] && [[ " $flags " != *" $flag "* ]]; then
			refuse "--$flag does not go with ${mode:-a test run}"
		fi
	done
	[ "${#args[@]}" -le "$most" ] || refuse "${mode:-a test run} takes at most $most argument(s): ${args[*]}"
}
mode_flags=()
[ "$bless" = 0 ] || mode_flags+=(--bless)
[ "$debug" = 0 ] || mode_flags+=(--debug)
case $mode in
--mutants) takes "" 1; exec "$REPO/scripts/mutants.sh" "${args[@]}" ;;
--each-patch) takes "bless" 1; exec "$REPO/scripts/each_patch.sh" "${mode_flags[@]}" "${args[@]}" ;;
--stress-bench) takes "" 1; exec "$REPO/scripts/stress_bench.sh" "${args[@]}" ;;
--fuzz) takes "debug" 2; exec "$REPO/scripts/fuzz.sh" "${mode_flags[@]}" "${args[@]}" ;;
--rbtree-bench) takes "" 1; exec "$REPO/scripts/rbtree_bench.sh" "${args[@]}" ;;
--test-verifier-baseline) takes "" 1; exec "$REPO/scripts/test_verifier_baseline.sh" "${args[@]}" ;;
esac
takes "debug bless list compare" 1
glob=${args[0]:-}
# --each-patch runs this flow once per prefix of the series
# (scripts/each_patch.sh): SERIES_UPTO=K applies patches 1..K and runs the
# tests that apply there (SERIES_EVERY_TEST=1: all of them, for its --bless).
if [ -n "${SERIES_UPTO:-}" ]; then
	[ "$debug$bless$list" = 000 ] && [ -z "$compare" ] ||
		refuse "SERIES_UPTO (--each-patch) takes no --debug, --bless, --list or --compare"
fi

user_kunit_timeout=${KUNIT_TIMEOUT:-}
. "$REPO/scripts/common.sh"
if [ -n "${UPSTREAM_SELFTESTS:-}" ]; then
	if ! UPSTREAM_SELFTESTS=$(cd "$UPSTREAM_SELFTESTS" 2>/dev/null && pwd) ||
		! compgen -G "$UPSTREAM_SELFTESTS/progs/*.c" >/dev/null; then
		echo "error: UPSTREAM_SELFTESTS must name tools/testing/selftests/bpf of a Linux 6.3 tree (with progs/)" >&2
		exit 2
	fi
fi
# One run a WORK_DIR at a time.
lock_work_dir() {
	mkdir -p "$WORK_DIR"
	exec 9>"$WORK_DIR/lock"
	flock -n 9 || die "another run_tests.sh is using $WORK_DIR"
}
# The manifest of the selftests that build without a kernel (all but
# selftests/vmlinux/'s: their objects need the patched tree's UAPI only),
# into $WORK_DIR/list-selftests; the tree must be prepared. Its programs
# are not all the programs: the expected logs are checked by the full build.
kernelless_manifest=$WORK_DIR/list-selftests/tests.list
make_kernelless_manifest() {
	make -s -C "$REPO/selftests" KERNEL_SRC="$SRC_DIR" OUT="${kernelless_manifest%/*}" EXPECTED_LOGS= \
		"$kernelless_manifest" >&2 || die "the selftests do not build"
}
if [ "$list" = 1 ]; then
	manifest=$SELFTEST_OUT/tests.list
	if [ ! -e "$manifest" ]; then
		# No run yet: the names of the programs built without a kernel.
		lock_work_dir
		"$REPO/scripts/install_deps.sh" >&2
		"$REPO/scripts/tree.sh" >&2
		make_kernelless_manifest
		manifest=$kernelless_manifest
		log "not listed before a first run: the programs of selftests/vmlinux/ (built against the kernel's BTF)"
	fi
	exec python3 "$REPO/scripts/select_tests.py" --list --kunit-dir "$REPO/kunit" \
		--manifest "$manifest" ${glob:+--glob "$glob"}
fi
lock_work_dir
# Nothing of an earlier run may pass for this one's: its results go first.
# run.json records this run as it goes (scripts/run_record.py).
rm -rf "$RESULTS_DIR"
mkdir -p "$RESULTS_DIR"
RUN_JSON=$RESULTS_DIR/run.json
export RUN_REASON_FILE=$RESULTS_DIR/exit-reason.txt
# (before install_deps.sh the package may be missing: the tree step sets it)
python3 "$REPO/scripts/run_record.py" "$RUN_JSON" start "$(base_version 2>/dev/null || true)"
trap 'python3 "$REPO/scripts/run_record.py" "$RUN_JSON" end "$?" "${EXIT_REASON:-}"' EXIT
# A step that fails is the harness's failure (2): run.json gets the reason
# the failing script gave, else the line and step.
trap 'EXIT_REASON=$(tail -n 1 "$RUN_REASON_FILE" 2>/dev/null) ||
	EXIT_REASON="unexpected failure at run_tests.sh line $LINENO in step $step"
	[ -n "$EXIT_REASON" ] || EXIT_REASON="unexpected failure in step $step"
	printf "error: %s\n" "$EXIT_REASON" >&2; exit 2' ERR
step() {
	step=$1
	python3 "$REPO/scripts/run_record.py" "$RUN_JSON" step "$1"
}

step deps
"$REPO/scripts/install_deps.sh"

start=$(date +%s)
step tree
"$REPO/scripts/tree.sh"
python3 "$REPO/scripts/run_record.py" "$RUN_JSON" set base_version "$(base_version)"
python3 "$REPO/scripts/run_record.py" "$RUN_JSON" set tree_id \
	"$(git -C "$SRC_DIR" rev-parse 'HEAD^{tree}')"

# select_tests.py's exit status RC (2: the GLOB names no test) ends the run.
selection_failed() {
	die "cannot select the tests$([ "$1" != 2 ] || echo ": $glob names no test")"
}
# A GLOB that can name no test is refused before the kernel is built: the
# programs that build without a kernel are known, those of vmlinux/ (and
# UPSTREAM_SELFTESTS) only by the names their sources could give them. A
# MANIFEST or MANIFEST_EDIT may name others (the benchmarks): checked after.
if [ -n "$glob" ] && [ -z "${SERIES_UPTO:-}${MANIFEST:-}${MANIFEST_EDIT:-}" ]; then
	step filter
	make_kernelless_manifest
	unbuilt=()
	for src in "$REPO"/selftests/vmlinux/*.c "${UPSTREAM_SELFTESTS:-/nonexistent}"/progs/*.c; do
		[ ! -e "$src" ] || unbuilt+=("$src")
	done
	filter_rc=0
	python3 "$REPO/scripts/select_tests.py" --check --manifest "$kernelless_manifest" \
		--kunit-dir "$REPO/kunit" --glob "$glob" --unbuilt "${unbuilt[@]}" || filter_rc=$?
	[ "$filter_rc" = 0 ] || selection_failed "$filter_rc"
fi

build_dir=$WORK_DIR/build
KUNIT_CONFIGS=("$REPO/kunitconfig")
kernel_args=()
if [ "$debug" = 1 ]; then
	build_dir=$WORK_DIR/build-debug
	KUNIT_CONFIGS+=("$REPO/kunitconfig.debug")
	# every KASAN report, not only the first: bpf_graph_kasan provokes one
	kernel_args=(--kernel_args=kasan_multi_shot)
	# KASAN, kmemleak and lockdep slow the guest: three times the time,
	# unless the caller chose
	[ -n "$user_kunit_timeout" ] || KUNIT_TIMEOUT=$((KUNIT_TIMEOUT * 3))
	: "${TEST_TIMEOUT:=180}"
fi
# TEST_TIMEOUT: seconds a selftest's loader may run (the guest's default: 60)
[ -z "${TEST_TIMEOUT:-}" ] || kernel_args+=(--kernel_args="bpf_graph_loader_timeout=$TEST_TIMEOUT")
# KERNEL_ARGS: more of the guest's command line (the benchmarks turn the
# harness's object hooks or their poisoning off)
[ -z "${KERNEL_ARGS:-}" ] || kernel_args+=(--kernel_args="$KERNEL_ARGS")
# a prefix of the series may not define every option of kunitconfig yet
if [ -n "${SERIES_UPTO:-}" ]; then
	prefix_kunitconfig >"$RESULTS_DIR/kunitconfig"
	KUNIT_CONFIGS=("$RESULTS_DIR/kunitconfig")
fi
# A failed build leaves no console log behind, not the previous one.
rm -f "$build_dir/test.log"
KUNIT_BUILD_DIR=$build_dir KUNIT_LOG=$RESULTS_DIR/kunit.txt KUNIT_SHOW=1

. "$REPO/scripts/build_stamp.sh"
step build
if stamp_fresh "$build_dir" "${KUNIT_CONFIGS[@]}"; then
	log "kunit.py build: $build_dir is built from this tree and config, nothing to do"
else
	stamp_prepare "$build_dir"
	log "kunit.py build (build dir $build_dir)"
	kunit_py build --jobs="$(nproc)" || die "the kernel does not build (see $RESULTS_DIR/kunit.txt)"
	stamp_record "$build_dir" "${KUNIT_CONFIGS[@]}"
fi

# After the kernel: some selftests are built against a vmlinux.h dumped
# from its BTF, as most programs are.
step selftests
log "building selftests into $SELFTEST_OUT"
if [ -z "${SERIES_UPTO:-}" ]; then
	make -s -C "$REPO/selftests" KERNEL_SRC="$SRC_DIR" OUT="$SELFTEST_OUT" VMLINUX="$build_dir/vmlinux" ||
		die "the selftests do not build"
else
	# A prefix builds the objects it can (the tests of the others are
	# named as not built, below), and no check of the expected logs.
	rm -f "$SELFTEST_OUT/tests.list"
	make -k -s -C "$REPO/selftests" KERNEL_SRC="$SRC_DIR" OUT="$SELFTEST_OUT" \
		VMLINUX="$build_dir/vmlinux" EXPECTED_LOGS= >"$RESULTS_DIR/selftests.txt" 2>&1 || true
	[ -x "$SELFTEST_OUT/loader" ] || die "the loader does not build (see $RESULTS_DIR/selftests.txt)"
fi
# Upstream 6.3's own graph selftests, only when UPSTREAM_SELFTESTS names them
rm -rf "$SELFTEST_OUT/upstream"
if [ -n "${UPSTREAM_SELFTESTS:-}" ]; then
	log "building upstream's graph selftests from $UPSTREAM_SELFTESTS"
	make -s -C "$REPO/selftests" KERNEL_SRC="$SRC_DIR" OUT="$SELFTEST_OUT" \
		VMLINUX="$build_dir/vmlinux" UPSTREAM="$UPSTREAM_SELFTESTS" upstream ||
		die "upstream's selftests in $UPSTREAM_SELFTESTS do not build"
	[ -s "$SELFTEST_OUT/upstream/tests.list" ] ||
		die "UPSTREAM_SELFTESTS: no graph selftest (linked_list*.c, rbtree*.c) in $UPSTREAM_SELFTESTS/progs"
fi
# The manifest of this run: the one make derived from the objects'
# annotations (or MANIFEST), through MANIFEST_EDIT if set; GLOB may name
# selftests; the denylist's entries are left out (and reported).
whole=${MANIFEST:-$SELFTEST_OUT/tests.list}
if [ -e "$SELFTEST_OUT/upstream/tests.list" ]; then
	cat "$whole" "$SELFTEST_OUT/upstream/tests.list" >"$RESULTS_DIR/with-upstream.list"
	whole=$RESULTS_DIR/with-upstream.list
fi
if [ -n "${MANIFEST_EDIT:-}" ]; then
	bash -c "$MANIFEST_EDIT" <"$whole" >"$RESULTS_DIR/edited.list" ||
		die "MANIFEST_EDIT failed: $MANIFEST_EDIT"
	whole=$RESULTS_DIR/edited.list
fi
manifest=$RESULTS_DIR/tests.list
prefix=()
if [ -n "${SERIES_UPTO:-}" ]; then
	prefix=(--prefix "$SERIES_UPTO" --last "$(series_patches | wc -l)"
		--first-patch "$REPO/tests/first-patch.list")
	check_prefix=("${prefix[@]}" --not-built "$RESULTS_DIR/not-built" --statuses "$RESULTS_DIR/statuses")
	prefix+=(--objects "$SELFTEST_OUT" --not-built-out "$RESULTS_DIR/not-built"
		${SERIES_EVERY_TEST:+--every-test})
fi
select_rc=0
python3 "$REPO/scripts/select_tests.py" --manifest "$whole" --kunit-dir "$REPO/kunit" \
	--denylist "$REPO/selftests/denylist" ${glob:+--glob "$glob"} --out "$manifest" \
	--kunit-glob-out "$RESULTS_DIR/kunit-glob" --denied-out "$RESULTS_DIR/denied.list" \
	"${prefix[@]}" || select_rc=$?
[ "$select_rc" = 0 ] || selection_failed "$select_rc"
glob=$(cat "$RESULTS_DIR/kunit-glob")
# 6.1's own test_verifier (the bpf_test_verifier suite), when the run has it
rm -f "$SELFTEST_OUT/test_verifier/"{expected,run-cases}
suite_glob=${glob%%.*} case_glob=${glob#*.}
[ "$case_glob" != "$glob" ] || case_glob='*'
# shellcheck disable=SC2053	# the globs are patterns
if [ -z "$glob" ] || { [[ bpf_test_verifier == $suite_glob ]] && [[ tv_verdict == $case_glob ]]; }; then
	make_test_verifier_expected "$SELFTEST_OUT/test_verifier"
fi
initramfs=$SELFTEST_OUT/initramfs.cpio
MANIFEST=$manifest "$REPO/scripts/pack_initramfs.sh" "$initramfs"

step exec
log "kunit.py exec"
kunit_rc=0
kunit_py exec "${kernel_args[@]}" --timeout="$KUNIT_TIMEOUT" \
	--qemu_args="-smp $GUEST_CPUS -initrd $initramfs ${QEMU_ARGS:-}" \
	--json="$RESULTS_DIR/results.json" ${glob:+"$glob"} || kunit_rc=$?
cp "$build_dir/test.log" "$RESULTS_DIR/console.log" 2>/dev/null || true
# The console's kernel traces (a WARNING, BUG or Oops and the frames
# after it), each frame decoded to its file and line against the built
# vmlinux, into oops.txt.
if grep -q 'Call Trace:' "$RESULTS_DIR/console.log" 2>/dev/null; then
	awk '/cut here|BUG:|WARNING:|Oops|general protection/ { n = 80 } n-- > 0' \
		"$RESULTS_DIR/console.log" |
		"$SRC_DIR/scripts/decode_stacktrace.sh" "$build_dir/vmlinux" "$SRC_DIR" \
		>"$RESULTS_DIR/oops.txt" 2>/dev/null ||
		log "warning: the console's traces could not be decoded"
fi
python3 "$REPO/scripts/ktap.py" "$SRC_DIR/tools/testing/kunit" "$RESULTS_DIR/console.log" \
	>"$RESULTS_DIR/ktap.txt" || die "cannot extract the KTAP from the console"
cp "$build_dir/.config" "$RESULTS_DIR/kernel.config" 2>/dev/null || true
cat "$REPO"/patches/*.patch | sha256sum | cut -d' ' -f1 >"$RESULTS_DIR/series.sha256"

check=(--kunit-tool "$SRC_DIR/tools/testing/kunit" --console "$RESULTS_DIR/console.log"
	--manifest "$SELFTEST_OUT/initramfs/selftests/tests.list" --glob "$glob"
	--kunit-dir "$SRC_DIR/$KUNIT_DIR" --kconfig "$build_dir/.config"
	--allowlist "$REPO/scripts/splat-allowlist" --stats-csv "$RESULTS_DIR/verifier-stats.csv"
	--records "$RESULTS_DIR/tests.json" --denied "$RESULTS_DIR/denied.list")
[ ! -e "$SELFTEST_OUT/test_verifier/expected" ] ||
	check+=(--tv-expected "$SELFTEST_OUT/test_verifier/expected")
[ "$bless" = 0 ] || check+=(--bless "$REPO/expected-logs")
[ -z "${SERIES_UPTO:-}" ] || check+=("${check_prefix[@]}")
step check
check_rc=0
python3 "$REPO/scripts/check_results.py" "${check[@]}" || check_rc=$?

compare_rc=0
if [ -n "$compare" ]; then
	bless_stats=()
	[ "$bless" = 0 ] || bless_stats=(--bless)
	python3 "$REPO/scripts/compare_stats.py" "${bless_stats[@]}" "$compare" \
		"$RESULTS_DIR/verifier-stats.csv" "$manifest" || compare_rc=1
fi

log "results in $RESULTS_DIR (kunit.py exit $kunit_rc, $(($(date +%s) - start)) s)"
# 0 all passed, 1 a test failed, 2 no test could run (the guest did not boot)
if [ "$check_rc" = 2 ]; then
	EXIT_REASON="no test reported (did the guest boot? see $RESULTS_DIR/console.log)"
	exit 2
fi
# (kunit.py fails a prefix's tests that are still to pass: check_results.py
# tells those apart)
[ -z "${SERIES_UPTO:-}" ] || kunit_rc=0
if [ "$kunit_rc" != 0 ] || [ "$check_rc" != 0 ] || [ "$compare_rc" != 0 ]; then
	EXIT_REASON="a test failed (see $RESULTS_DIR/tests.json)"
	exit 1
fi
