#!/usr/bin/env bash
# ./run_tests.sh --fuzz [--debug] [SEEDS [COUNT]]
#
# The long run of the fuzzers, for maintainers, in one boot: every object
# of the manifest's mutate_* entries with seeds 1..SEEDS (default 20),
# COUNT mutants per program and seed (default 10) (generators/mutate.c), and
# every gen_* entry with SEEDS seeds of up to 100,000 generated programs
# (generators/gen.c). Each entry stops at its 20 s budget. Prints the
# counts; a leak, crash, splat or disagreement with the ownership model
# fails the run and names the program, seed and index.
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
# The derived manifest's mutate and gen entries, each with SEEDS seeds.
edit=$WORK_DIR/fuzz.awk
cat >"$edit" <<'EOF'
$3 == "mutate" {
	for (s = 1; s <= seeds; s++)
		printf "%s_s%d %s mutate %d %d\n", $1, s, $2, s * 1000003, count
	n++
}
$3 == "gen" {
	for (s = 1; s <= seeds; s++)
		printf "%s_s%d - gen %d 100000\n", $1, s, s * 1000003 + $4
	n++
}
END { if (!n) { print "no mutate or gen entries in the manifest" >"/dev/stderr"; exit 1 } }
EOF
log "fuzz: $seeds seeds of each mutate and gen entry"

rc=0
MANIFEST_EDIT="awk -v seeds=$seeds -v count=$count -f '$edit'" "$REPO/run_tests.sh" "${debug[@]}" '*' || rc=$?
console=$RESULTS_DIR/console.log
grep -ao 'mutate: [0-9]* program(s), [0-9]* mutants loaded, [0-9]* refused, [0-9]* runs' \
	"$console" | awk '
	{ loaded += $4; refused += $7; runs += $9 }
	END { printf "fuzz: %d mutants: %d loaded, %d refused; %d runs of accepted mutants\n",
		loaded + refused, loaded, refused, runs }'
grep -ao 'gen: [0-9]* programs ([0-9]* of them [a-z ]*): [0-9]* accepted, [0-9]* refused, [0-9]* disagreements; [0-9]* runs' \
	"$console" | tr -d '():;,' | awk '
	{ progs += $2; allowed += $4; acc += $10; ref += $12; dis += $14; runs += $16 }
	END { printf "fuzz: %d generated programs (%d from allowed operations): %d accepted, %d refused, %d disagreements with the model; %d runs\n",
		progs, allowed, acc, ref, dis, runs }'
grep -a 'FAIL: mutate\|FAIL: gen\|  operations:' "$console" || true
exit "$rc"
