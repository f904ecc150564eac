#!/usr/bin/env bash
# Build Debian's linux-source-6.1 with patches/ applied and run the project's
# KUnit suites and BPF selftests in a QEMU guest with kunit.py.
#
#   ./run_tests.sh [--debug] [--bless] [GLOB]
#   ./run_tests.sh --mutants [GLOB]       (scripts/mutants.sh)
#   ./run_tests.sh --each-patch [--bless] [FIRST[-LAST]]   (scripts/each_patch.sh)
#
# Exits 0 only when every test ran and passed. See README.md.
set -euo pipefail
REPO=$(cd "$(dirname "$0")" && pwd)

usage() {
	cat <<EOF
usage: $0 [--debug] [--bless] [GLOB]
       $0 --mutants [GLOB]
       $0 --each-patch [--bless] [FIRST[-LAST]]
  GLOB      run only the KUnit suites/tests matching GLOB (kunit.py filter_glob)
  --debug   add kunitconfig.debug (KASAN, kmemleak, lockdep)
  --bless   rewrite expected-logs/ from the verifier messages of this run
  --mutants run the suite once per mutant in mutants/ (GLOB: mutant names)
            and print the mutation score
  --each-patch  build every prefix of the series (or patches FIRST..LAST)
            and run the tests that apply to it, one line per patch
environment: WORK_DIR (default .work), SELFTEST_OUT, RESULTS_DIR, KUNIT_TIMEOUT
EOF
}

debug=0 bless=0 glob=
while [ $# -gt 0 ]; do
	case $1 in
	--debug) debug=1 ;;
	--bless) bless=1 ;;
	--mutants) shift; exec "$REPO/scripts/mutants.sh" "$@" ;;
	--each-patch) shift; exec "$REPO/scripts/each_patch.sh" "$@" ;;
	-h | --help) usage; exit 0 ;;
	-*) usage >&2; exit 2 ;;
	*) [ -z "$glob" ] || { usage >&2; exit 2; }; glob=$1 ;;
	esac
	shift
done

. "$REPO/scripts/common.sh"
"$REPO/scripts/install_deps.sh"

mkdir -p "$WORK_DIR" "$RESULTS_DIR"
exec 9>"$WORK_DIR/lock"
flock -n 9 || die "another run_tests.sh is using $WORK_DIR"

start=$(date +%s)
"$REPO/scripts/tree.sh"

log "building selftests into $SELFTEST_OUT"
make -s -C "$REPO/selftests" KERNEL_SRC="$SRC_DIR" OUT="$SELFTEST_OUT"
initramfs=$SELFTEST_OUT/initramfs.cpio
"$REPO/scripts/pack_initramfs.sh" "$initramfs"

build_dir=$WORK_DIR/build
kunitconfigs=(--kunitconfig="$REPO/kunitconfig")
kernel_args=()
if [ "$debug" = 1 ]; then
	build_dir=$WORK_DIR/build-debug
	kunitconfigs+=(--kunitconfig="$REPO/kunitconfig.debug")
	# every KASAN report, not only the first: graph_kasan provokes one
	kernel_args=(--kernel_args=kasan_multi_shot)
fi
# A failed build leaves no console log behind, not the previous one.
rm -f "$RESULTS_DIR"/{results.json,console.log,kunit.txt} "$build_dir/test.log"

log "kunit.py run (build dir $build_dir)"
set +e
(cd "$SRC_DIR" && python3 tools/testing/kunit/kunit.py run --arch=x86_64 \
	--build_dir="$build_dir" "${kunitconfigs[@]}" "${kernel_args[@]}" --jobs="$(nproc)" \
	--timeout="$KUNIT_TIMEOUT" --qemu_args="-initrd $initramfs" \
	--json="$RESULTS_DIR/results.json" ${glob:+"$glob"}) 2>&1 |
	tee "$RESULTS_DIR/kunit.txt"
kunit_rc=${PIPESTATUS[0]}
set -e
cp "$build_dir/test.log" "$RESULTS_DIR/console.log" 2>/dev/null || true

check=(--json "$RESULTS_DIR/results.json" --console "$RESULTS_DIR/console.log"
	--manifest "$SELFTEST_OUT/initramfs/selftests/tests.list" --glob "$glob"
	--kunit-dir "$REPO/kunit" --kconfig "$build_dir/.config"
	--allowlist "$REPO/scripts/splat-allowlist")
[ "$bless" = 0 ] || check+=(--bless "$REPO/expected-logs")
set +e
python3 "$REPO/scripts/check_results.py" "${check[@]}"
check_rc=$?
set -e

log "results in $RESULTS_DIR (kunit.py exit $kunit_rc, $(($(date +%s) - start)) s)"
[ "$kunit_rc" = 0 ] && [ "$check_rc" = 0 ]
