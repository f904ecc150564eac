#!/usr/bin/env bash
# ./run_tests.sh --each-patch [--bless] [FIRST[-LAST]]
#
# Build every prefix of the series (patches 1..K, K = FIRST..LAST, default
# all) and run the tests that apply to it: a test applies from the first
# patch tests/first-patch.list names for it (the last patch if it names
# none), and a selftest runs only where it applies (all of them with
# --bless); a KUnit file builds from the "# first patch:" of its
# kunit/Makefile line. One line per patch; exits non-zero if any prefix
# failed to build or failed a test that applies. --bless (over the whole series) rewrites
# tests/first-patch.list: each test's first patch from which it passes at
# every later prefix.
#
# Its own tree and build directory ($WORK_DIR/each-patch): going forward one
# patch at a time keeps each build incremental, and the main build never
# links objects of a prefix.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"
. "$REPO/scripts/build_stamp.sh"

bless=0 range=
for arg in "$@"; do
	case $arg in
	--bless) bless=1 ;;
	[0-9]*) range=$arg ;;
	*) die "--each-patch: unknown argument $arg" ;;
	esac
done

"$REPO/scripts/install_deps.sh"
main_work=$WORK_DIR
# The names of the whole series' tests: the manifest a main run derived
# from its objects (a prefix builds fewer objects, and names only theirs).
whole_manifest=$SELFTEST_OUT/tests.list
[ -e "$whole_manifest" ] ||
	die "--each-patch needs $whole_manifest, derived by a main run: run ./run_tests.sh first"
export WORK_DIR=$main_work/each-patch
export SRC_DIR=$WORK_DIR/linux SELFTEST_OUT=$WORK_DIR/selftests
export RESULTS_DIR=$WORK_DIR/results
FIRSTS=$REPO/tests/first-patch.list
mkdir -p "$RESULTS_DIR"
exec 9>"$WORK_DIR/lock"
flock -n 9 || die "another --each-patch run is using $WORK_DIR"

patches=()
for p in "$REPO"/patches/*.patch; do
	[ "${p##*/}" = 0000-cover-letter.patch ] || patches+=("$p")
done
last=${#patches[@]}
from=${range%-*} to=${range#*-}
from=$((10#${from:-1})) to=$((10#${to:-$last}))
[ "$from" -ge 1 ] && [ "$to" -le "$last" ] && [ "$from" -le "$to" ] ||
	die "--each-patch: range $range is not within 1-$last"
[ "$bless" = 0 ] || [ "$from-$to" = "1-$last" ] ||
	die "--each-patch --bless needs the whole series"

# The manifest (at the last patch, the one derived here) without the
# selftests whose object does not build here and, before the last patch,
# without the mutated and generated programs (whole-series tests) and,
# unless blessing, without the selftests whose first patch is still to
# come: those find the soundness holes that later patches close, and crash
# or hang the kernel there, taking the other tests of the boot with them
# (seen at patch 13: a bpf_obj_drop() call serving two types, closed by 24,
# once freed objects were poisoned; at 15: a node removed through another
# root, erased from the wrong tree, closed by 26). --bless runs them all,
# to find where each starts to pass.
# prefix_manifest K WHOLE
prefix_manifest() {
	local manifest=$whole_manifest
	[ -z "$2" ] || [ ! -e "$SELFTEST_OUT/tests.list" ] || manifest=$SELFTEST_OUT/tests.list
	awk -v objs="$SELFTEST_OUT" -v nb="$RESULTS_DIR/not-built" -v whole="$2" \
		-v k="$1" -v all="$bless" '
		FNR == NR { if ($0 !~ /^#/ && NF == 2) first[$1] = $2 + 0; next }
		/^#/ || !NF { print; next }
		($3 == "mutate" || $3 == "gen") && !whole { next }
		!whole && !all && !($1 in first && first[$1] <= k) { next }
		$2 == "-" || system("test -e " objs "/" $2) == 0 { print; next }
		{ print $1 > nb }' "$FIRSTS" "$manifest"
}

failed=0 start=$(date +%s)
for k in $(seq "$from" "$to"); do
	p=${patches[$((k - 1))]}
	name=$(basename "$p" .patch)
	t0=$(date +%s)
	out=$RESULTS_DIR/$name
	mkdir -p "$out"
	if ! SERIES_UPTO=$k "$REPO/scripts/tree.sh" >"$out/tree.txt" 2>&1; then
		echo "${name:0:4}: FAILED: the series does not apply (see $out/tree.txt)"
		failed=1
		break
	fi
	prefix_kunitconfig >"$out/kunitconfig"
	KUNIT_BUILD_DIR=$WORK_DIR/build KUNIT_CONFIGS=("$out/kunitconfig") KUNIT_LOG=$out/kunit.txt
	rm -f "$WORK_DIR/build/test.log" "$out/kunit.txt"
	stamp_prepare "$WORK_DIR/build"
	if ! kunit_py build --jobs="$(nproc)"; then
		echo "${name:0:4} FAILED: does not build ($(($(date +%s) - t0)) s, see $out/kunit.txt) ${name:5}"
		failed=1
		continue
	fi
	stamp_record "$WORK_DIR/build" "$out/kunitconfig"
	rm -f "$SELFTEST_OUT/tests.list"
	make -k -s -C "$REPO/selftests" KERNEL_SRC="$SRC_DIR" OUT="$SELFTEST_OUT" \
		VMLINUX="$WORK_DIR/build/vmlinux" EXPECTED_LOGS= >"$out/selftests.txt" 2>&1 || true
	[ -x "$SELFTEST_OUT/loader" ] || die "the loader does not build (see $out/selftests.txt)"
	SERIES_UPTO=$k make_test_verifier_expected "$SELFTEST_OUT/test_verifier"
	rm -f "$RESULTS_DIR/not-built"
	touch "$RESULTS_DIR/not-built"
	prefix_manifest "$k" "$([ "$k" = "$last" ] && echo 1)" >"$out/tests.list"
	mv "$RESULTS_DIR/not-built" "$out/not-built"
	MANIFEST=$out/tests.list "$REPO/scripts/pack_initramfs.sh" "$SELFTEST_OUT/initramfs.cpio"
	kunit_py exec --timeout="$KUNIT_TIMEOUT" \
		--qemu_args="-smp $GUEST_CPUS -initrd $SELFTEST_OUT/initramfs.cpio" \
		--json="$out/results.json" || true
	cp "$WORK_DIR/build/test.log" "$out/console.log" 2>/dev/null || true
	if python3 "$REPO/scripts/check_results.py" --kunit-tool "$SRC_DIR/tools/testing/kunit" \
		--console "$out/console.log" --manifest "$out/tests.list" \
		--kunit-dir "$SRC_DIR/kernel/bpf/graph_kunit" --kconfig "$WORK_DIR/build/.config" \
		--allowlist "$REPO/scripts/splat-allowlist" --first-patch "$FIRSTS" \
		--prefix "$k" --last "$last" --not-built "$out/not-built" \
		--tv-expected "$SELFTEST_OUT/test_verifier/expected" \
		--statuses "$out/statuses" >"$out/check.txt" 2>&1; then
		verdict=ok
	else
		verdict=FAILED failed=1
	fi
	summary=$(grep '^results:' "$out/check.txt" || echo "no results (build failed? see $out/kunit.txt)")
	echo "${name:0:4} $verdict: ${summary#results: } ($(($(date +%s) - t0)) s) ${name:5}"
	grep '^FAILED:' "$out/check.txt" | sed 's/^/      /' | head -20 || true
done
echo "each-patch: patches $from-$to in $(($(date +%s) - start)) s, $([ "$failed" = 0 ] && echo "all green" || echo "FAILED")"

if [ "$bless" = 1 ]; then
	# This series' prefixes only: a renamed or renumbered patch leaves the
	# results of its old name behind.
	statuses=()
	for p in "${patches[@]}"; do
		statuses+=("$RESULTS_DIR/$(basename "$p" .patch)/statuses")
	done
	python3 "$REPO/scripts/first_patches.py" "$FIRSTS" "${statuses[@]}"
fi
exit "$failed"
