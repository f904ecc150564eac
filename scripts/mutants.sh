#!/usr/bin/env bash
# Mutation score of the suite: run it once per mutant of the patched tree
# and count the mutants it kills (the run fails).
#
#   ./run_tests.sh --mutants [GLOB]    (GLOB: a pattern for mutants/*.diff names)
#
# Each mutants/NAME.diff is a diff against the patched tree; its first line,
# "Reason: ...", says what bug it simulates. A mutant no test can kill
# because it changes nothing a program can observe has an "Equivalent: why"
# line next: it runs, but counts only if it is killed after all (then the
# claim is wrong and the run fails). scripts/tree.sh applies it
# (MUTANT=) after the series and undoes it on the next run, so every build
# is incremental and never links a mutant's objects into another tree.
# Prints one line per mutant, the survivors, and "mutants: KILLED/TOTAL
# killed"; exits 1 when a mutant survives or does not build.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"

glob=${1:-*}
# a name that matches nothing is refused before anything, the baseline run too
compgen -G "$REPO/mutants/$glob.diff" >/dev/null || die "no mutant matches mutants/$glob.diff"
out=$WORK_DIR/mutants
rm -rf "$out"
mkdir -p "$out"
# A mutant that hangs the guest is killed by kunit.py's timeout.
export KUNIT_TIMEOUT=${MUTANT_TIMEOUT:-400}

# run NAME [MUTANT]: one run of the suite; its output in $out/NAME.log.
run() {
	MUTANT=${2:-} RESULTS_DIR=$out/$1 "$REPO/run_tests.sh" >"$out/$1.log" 2>&1
}

# Undo the last mutant however this script ends (the next run would too).
trap '"$REPO/scripts/tree.sh" >/dev/null 2>&1 || true' EXIT

log "baseline: the unmutated suite must pass"
run baseline || die "the suite fails without a mutant: see $out/baseline.log"

killed=0 total=0 broken=0 equivalents=0 survivors=() wrong=()
for m in "$REPO"/mutants/$glob.diff; do
	name=$(basename "$m" .diff)
	reason=$(sed -n '1s/^Reason: //p' "$m")
	[ -n "$reason" ] || die "$m: the first line must be 'Reason: ...'"
	equivalent=$(sed -n '2s/^Equivalent: //p' "$m")
	start=$(date +%s)
	if run "$name" "$m"; then
		if [ -n "$equivalent" ]; then
			verdict="survived, equivalent: $equivalent"
			equivalents=$((equivalents + 1))
		else
			verdict=SURVIVED
			survivors+=("$name: $reason")
		fi
	elif ! grep -q 'Starting KUnit Kernel' "$out/$name.log"; then
		verdict="BROKEN (did not build, see $out/$name.log)"
		broken=$((broken + 1))
	else
		# grep stops after three itself: a reader that quits early
		# would kill a writer with SIGPIPE, and pipefail this script.
		verdict="killed by $(grep -m 3 '^FAILED: ' "$out/$name.log" |
			sed 's/^FAILED: //' | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
		killed=$((killed + 1))
		[ -z "$equivalent" ] || wrong+=("$name")
	fi
	[ "${verdict#BROKEN}" != "$verdict" ] || [ "${verdict#survived, equiv}" != "$verdict" ] ||
		total=$((total + 1))
	printf '%-45s %4ss  %s\n' "$name" "$(($(date +%s) - start))" "$verdict"
done

if [ ${#survivors[@]} -gt 0 ]; then
	echo "survivors:"
	printf '  %s\n' "${survivors[@]}"
fi
if [ ${#wrong[@]} -gt 0 ]; then
	echo "killed, but marked equivalent (fix the catalogue): ${wrong[*]}"
fi
echo "mutants: $killed/$total killed, $broken broken, $equivalents equivalent not counted"
[ "$killed" = "$total" ] && [ "$broken" = 0 ] && [ ${#wrong[@]} = 0 ]
