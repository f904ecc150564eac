#!/usr/bin/env bash
# ./run_tests.sh --fuzz [--debug] [SEEDS [COUNT]]
#
# The long run of the mutated selftests (selftests/mutate.c), for
# maintainers: every object of the manifest's mutate_* entries with seeds
# 1..SEEDS (default 20), COUNT mutants per program and seed (default 10),
# in one boot. Each entry stops at its 20 s budget. Prints the loaded,
# refused and run counts; any leak, crash or splat fails the run and names
# the program, seed and mutant.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"

debug=()
if [ "${1:-}" = --debug ]; then
	debug=(--debug)
	shift
fi
seeds=${1:-20} count=${2:-10}
[[ $seeds =~ ^[0-9]+$ && $count =~ ^[0-9]+$ ]] || die "--fuzz: SEEDS and COUNT are numbers"

mkdir -p "$WORK_DIR"
manifest=$WORK_DIR/fuzz.list
awk -v seeds="$seeds" -v count="$count" '
	$3 == "mutate" {
		for (s = 1; s <= seeds; s++)
			printf "%s_s%d %s mutate %d %d\n", $1, s, $2, s * 1000003, count
	}' "$REPO/selftests/tests.list" >"$manifest"
[ -s "$manifest" ] || die "no mutate entries in selftests/tests.list"
log "fuzz: $(wc -l <"$manifest") entries ($seeds seeds x $(grep -c ' mutate ' "$REPO/selftests/tests.list") objects)"

rc=0
MANIFEST=$manifest "$REPO/run_tests.sh" "${debug[@]}" 'mutate_*' || rc=$?
grep -ao 'mutate: [0-9]* program(s), [0-9]* mutants loaded, [0-9]* refused, [0-9]* runs' \
	"$RESULTS_DIR/console.log" | awk '
	{ progs += $2; loaded += $4; refused += $7; runs += $9 }
	END { printf "fuzz: %d mutants: %d loaded, %d refused; %d runs of accepted mutants\n",
		loaded + refused, loaded, refused, runs }'
grep -a 'FAIL: mutate' "$RESULTS_DIR/console.log" || true
exit "$rc"
