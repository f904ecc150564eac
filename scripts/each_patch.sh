#!/usr/bin/env bash
# ./run_tests.sh --each-patch [--bless] [FIRST[-LAST]]
#
# Run the main flow (run_tests.sh) on every prefix of the series (patches
# 1..K, K = FIRST..LAST, default all), with the tests that apply to it: a
# test applies from the first patch tests/first-patch.list names for it (the
# last patch if it names none), and a selftest runs only where it applies
# (all of them with --bless); a KUnit file builds from the "# first patch:"
# of its kunit/Makefile line. One line per patch; exits non-zero if any
# prefix failed to build or failed a test that applies. --bless (over the
# whole series) rewrites tests/first-patch.list: each test's first patch
# from which it passes at every later prefix.
#
# Its own tree and build directory ($WORK_DIR/each-patch): going forward one
# patch at a time keeps each build incremental, and the main build never
# links objects of a prefix.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"

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
results=$WORK_DIR/results FIRSTS=$REPO/tests/first-patch.list
mkdir -p "$results"
# the loop's own lock: run_tests.sh takes $WORK_DIR/lock for each prefix
exec 8>"$WORK_DIR/each-patch.lock"
flock -n 8 || die "another --each-patch run is using $WORK_DIR"

mapfile -t patches < <(series_patches)
last=${#patches[@]}
from=${range%-*} to=${range#*-}
from=$((10#${from:-1})) to=$((10#${to:-$last}))
[ "$from" -ge 1 ] && [ "$to" -le "$last" ] && [ "$from" -le "$to" ] ||
	die "--each-patch: range $range is not within 1-$last"
[ "$bless" = 0 ] || [ "$from-$to" = "1-$last" ] ||
	die "--each-patch --bless needs the whole series"

# Before the last patch a prefix runs against the whole series' manifest
# (its objects name only the tests that build there) without the tests
# whose first patch is still to come, unless blessing: those find the
# soundness holes that later patches close, and crash or hang the kernel
# there, taking the other tests of the boot with them (seen at patch 13: a
# bpf_obj_drop() call serving two types, closed by 24, once freed objects
# were poisoned; at 15: a node removed through another root, erased from the
# wrong tree, closed by 26). --bless runs them all, to find where each
# starts to pass (run_tests.sh, select_tests.py --prefix).
failed=0 start=$(date +%s)
for k in $(seq "$from" "$to"); do
	name=$(basename "${patches[$((k - 1))]}" .patch)
	out=$results/$name
	t0=$(date +%s) rc=0 step=
	SERIES_UPTO=$k SERIES_EVERY_TEST=$([ "$bless" = 0 ] || echo 1) RESULTS_DIR=$out \
		MANIFEST=$([ "$k" = "$last" ] || echo "$whole_manifest") \
		"$REPO/run_tests.sh" >"$out.txt" 2>&1 || rc=$?
	summary=$(grep '^results:' "$out.txt" | tail -n 1 || true)
	if [ "$rc" = 0 ]; then
		verdict=ok
	else
		verdict=FAILED failed=1
	fi
	if [ "$rc" -ge 2 ]; then
		# the harness stopped: run.json says at which step and why
		read -r step reason < <(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(r.get("step", "?"), r.get("exit_reason", ""))' "$out/run.json" 2>/dev/null || echo "? no run.json")
		summary="stopped at step $step: $reason"
	fi
	echo "${name:0:4} $verdict: ${summary#results: } ($(($(date +%s) - t0)) s) ${name:5}"
	[ "$rc" = 0 ] || echo "      see $out.txt"
	grep '^FAILED:' "$out.txt" | sed 's/^/      /' | head -20 || true
	# a series that does not apply has no later prefix either
	[ "$step" != tree ] || break
done
echo "each-patch: patches $from-$to in $(($(date +%s) - start)) s, $([ "$failed" = 0 ] && echo "all green" || echo "FAILED")"

if [ "$bless" = 1 ]; then
	# This series' prefixes only: a renamed or renumbered patch leaves the
	# results of its old name behind.
	statuses=()
	for p in "${patches[@]}"; do
		statuses+=("$results/$(basename "$p" .patch)/statuses")
	done
	python3 "$REPO/scripts/first_patches.py" "$FIRSTS" "${statuses[@]}"
fi
exit "$failed"
