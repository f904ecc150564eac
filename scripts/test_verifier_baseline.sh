#!/usr/bin/env bash
# ./run_tests.sh --test-verifier-baseline [OUT]
#
# What 6.1's own test_verifier reports on the kernel WITHOUT the series: build
# the pristine linux-source-6.1 with the test kernel's configuration (the
# kunitconfig less the series' own options) and the harness's KUnit files
# that build there, run the bpf_test_verifier suite in it with no
# expectations, and write each case variant's signature to OUT (default
# tests/test_verifier/baseline-VERSION.txt). A run of ./run_tests.sh that
# finds no baseline for the installed version makes one this way, in
# $WORK_DIR/test_verifier/.
#
# Its own tree and build directory ($WORK_DIR/pristine): a cold kernel build
# (about 15 minutes on 2 cores) and a 1.5 GB tree. The test_verifier binary
# and the loader are those of the last main run (they do not depend on the
# kernel), so that both kernels run the same corpus.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"
. "$REPO/scripts/build_stamp.sh"

out=${1:-$REPO/tests/test_verifier/baseline-$(base_version).txt}
tv=$SELFTEST_OUT/test_verifier
[ -x "$SELFTEST_OUT/loader" ] && [ -s "$tv/cases" ] ||
	die "--test-verifier-baseline needs the loader and test_verifier of a main run ($SELFTEST_OUT): run ./run_tests.sh first"

export WORK_DIR=$WORK_DIR/pristine
export SRC_DIR=$WORK_DIR/linux RESULTS_DIR=$WORK_DIR/results SERIES_UPTO=0
mkdir -p "$RESULTS_DIR"
exec 8>"$WORK_DIR/lock"
flock -n 8 || die "another baseline run is using $WORK_DIR"

log "test_verifier baseline: the pristine tree in $SRC_DIR"
"$REPO/scripts/tree.sh"
prefix_kunitconfig >"$RESULTS_DIR/kunitconfig"
build=$WORK_DIR/build
KUNIT_BUILD_DIR=$build KUNIT_CONFIGS=("$RESULTS_DIR/kunitconfig") KUNIT_LOG=$RESULTS_DIR/kunit.txt
rm -f "$RESULTS_DIR/kunit.txt" "$build/test.log"
if ! stamp_fresh "$build" "$RESULTS_DIR/kunitconfig"; then
	stamp_prepare "$build"
	log "test_verifier baseline: building the pristine kernel (see $RESULTS_DIR/kunit.txt)"
	kunit_py build --jobs="$(nproc)" || die "the pristine kernel does not build (see $RESULTS_DIR/kunit.txt)"
	stamp_record "$build" "$RESULTS_DIR/kunitconfig"
fi

# the guest needs the loader and test_verifier with its case list, and no
# expectations: then the loader reports every signature
stage=$WORK_DIR/initramfs
rm -rf "$stage"
mkdir -p "$stage"/{selftests,test_verifier,tmp,sys,proc}
cp "$SELFTEST_OUT/loader" "$stage/selftests/"
: >"$stage/selftests/tests.list"
cp "$tv/test_verifier" "$tv/cases" "$stage/test_verifier/"
(cd "$stage" && find . | LC_ALL=C sort | cpio --quiet -o -H newc) >"$WORK_DIR/initramfs.cpio"

log "test_verifier baseline: running it on the pristine kernel"
kunit_py exec --timeout="$KUNIT_TIMEOUT" \
	--qemu_args="-smp $GUEST_CPUS -initrd $WORK_DIR/initramfs.cpio" \
	--json="$RESULTS_DIR/results.json" 'bpf_test_verifier.tv_run' || true
cp "$build/test.log" "$RESULTS_DIR/console.log" 2>/dev/null ||
	die "the pristine kernel left no console log (see $RESULTS_DIR/kunit.txt)"

want=$(awk -F'\t' '{ n += $2 == "u" ? 2 : 1 } END { print n }' "$tv/cases")
mkdir -p "$(dirname "$out")"
{
	echo "# 6.1's test_verifier on the pristine linux-source-6.1 $(base_version), made by"
	echo "# ./run_tests.sh --test-verifier-baseline on $(date -u +%F): N/x<TAB>descr<TAB>signature"
	sed -n 's/.*test_verifier: baseline\t//p' "$RESULTS_DIR/console.log"
} >"$out.tmp"
got=$(grep -vc '^#' "$out.tmp" || true)
[ "$got" = "$want" ] ||
	die "the pristine run reported $got of $want case variants (see $RESULTS_DIR/console.log)"
mv "$out.tmp" "$out"
log "test_verifier baseline: $got case variants in $out"
