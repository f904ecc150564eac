#!/usr/bin/env bash
# Mutation score of the suite: run it once per mutant of the patched tree
# and count the mutants it kills (the run fails).
#
#   ./run_tests.sh --mutants [GLOB]    (GLOB: a pattern for mutants/*.diff names)
#   MUTANTS_DIR=DIR MUTANTS_RESUME=1 ./run_tests.sh --mutants [GLOB]
#
# The verdicts go to WORK_DIR/mutants/CATALOGUE/verdicts.tsv (CATALOGUE:
# the name of the mutants' directory) as they come, so a pass
# that stops (a session's end) goes on with MUTANTS_RESUME=1.
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
# MUTANTS_DIR: another catalogue (scripts/gen_mutants.py writes one);
# MUTANTS_RESUME=1: keep the verdicts of an earlier pass over the same
# series and run only the mutants it did not reach.
mdir=${MUTANTS_DIR:-$REPO/mutants}
# a name that matches nothing is refused before anything, the baseline run too
compgen -G "$mdir/$glob.diff" >/dev/null || die "no mutant matches ${MUTANTS_DIR:-mutants}/$glob.diff"
# one verdict file a catalogue: a resumed pass counts only its own mutants
out=$WORK_DIR/mutants/$(basename "$mdir")
verdicts=$out/verdicts.tsv
resume=0
if [ "${MUTANTS_RESUME:-0}" = 1 ] && [ -s "$verdicts" ]; then
	resume=1
	log "resuming: $(($(wc -l <"$verdicts") - 1)) mutant(s) already have a verdict in $verdicts"
else
	rm -rf "$out"
	mkdir -p "$out"
fi
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
# Verdicts belong to the tree the series builds, not to its patch text:
# a series refolded into other patches keeps them.
tree="tree $(git -C "$WORK_DIR/linux" rev-parse 'applied^^{tree}')"
if [ "$resume" = 1 ]; then
	[ "$(head -n 1 "$verdicts")" = "$tree" ] ||
		die "$verdicts is of another patched tree: run without MUTANTS_RESUME"
else
	echo "$tree" >"$verdicts"
fi

# One line per mutant in $verdicts: NAME, its class (killed, survived,
# equivalent, wrong: killed but marked equivalent, broken), the verdict.
for m in "$mdir"/$glob.diff; do
	name=$(basename "$m" .diff)
	reason=$(sed -n '1s/^Reason: //p' "$m")
	[ -n "$reason" ] || die "$m: the first line must be 'Reason: ...'"
	if grep -q "^$name	" "$verdicts"; then
		continue
	fi
	equivalent=$(sed -n '2s/^Equivalent: //p' "$m")
	start=$(date +%s)
	if run "$name" "$m"; then
		if [ -n "$equivalent" ]; then
			class=equivalent verdict="survived, equivalent: $equivalent"
		else
			class=survived verdict="SURVIVED: $reason"
		fi
	elif ! grep -q 'Starting KUnit Kernel' "$out/$name.log"; then
		class=broken verdict="BROKEN (did not build, see $out/$name.log)"
	else
		# grep stops after three itself: a reader that quits early
		# would kill a writer with SIGPIPE, and pipefail this script.
		verdict="killed by $(grep -m 3 '^FAILED: ' "$out/$name.log" |
			sed 's/^FAILED: //' | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
		class=killed
		[ -z "$equivalent" ] || class=wrong
	fi
	printf '%s\t%s\t%s\n' "$name" "$class" "$verdict" >>"$verdicts"
	printf '%-45s %4ss  %s\n' "$name" "$(($(date +%s) - start))" "$verdict"
done

# Only the mutants of this pass count: a resumed file may hold verdicts of
# mutants no longer in the catalogue (or left out by GLOB).
for f in "$mdir"/$glob.diff; do basename "$f" .diff; done >"$out/selected"
ours() { awk -F'\t' 'NR == FNR { sel[$1] = 1; next } FNR > 1 && ($1 in sel)' "$out/selected" "$verdicts"; }
count() { ours | awk -F'\t' -v c="$1" '$2 == c' | wc -l; }
killed=$(count killed) survived=$(count survived) broken=$(count broken)
equivalents=$(count equivalent) wrong=$(count wrong)
if [ "$survived" -gt 0 ]; then
	echo "survivors:"
	ours | awk -F'\t' '$2 == "survived" { print "  " $1 ": " $3 }'
fi
if [ "$wrong" -gt 0 ]; then
	echo "killed, but marked equivalent (fix the catalogue):" \
		"$(ours | awk -F'\t' '$2 == "wrong" { printf "%s ", $1 }')"
fi
total=$((killed + survived + wrong))
echo "mutants: $((killed + wrong))/$total killed, $broken broken, $equivalents equivalent not counted"
[ "$survived" = 0 ] && [ "$broken" = 0 ] && [ "$wrong" = 0 ]
