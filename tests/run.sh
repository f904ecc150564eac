#!/usr/bin/env bash
# The project's own tests: the main job must pass, and the harness must turn
# red, with a clear message, on a wrong expected log, a missing program, a
# crashing loader and a patch that does not apply.
#
# The failure scenarios run a tampered copy of the repository against the
# same WORK_DIR, so they reuse the kernel build and cost one guest boot each.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"

passed=0 failed=0
pass() { printf 'ok: %s\n' "$1"; passed=$((passed + 1)); }
fail() { printf 'FAIL: %s\n' "$1"; failed=$((failed + 1)); }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

log "unit tests of scripts/check_results.py"
if python3 "$REPO/tests/check_results_test.py" 2>"$tmp/unit.log"; then
	pass "check_results.py unit tests"
else
	cat "$tmp/unit.log"
	fail "check_results.py unit tests"
fi

log "main job: ./run_tests.sh"
if "$REPO/run_tests.sh" | tee "$tmp/main.log"; then
	pass "./run_tests.sh"
else
	fail "./run_tests.sh"
fi
main_counts=$(grep -E '^results: ' "$tmp/main.log" | tail -n 1 || true)

# Copy the repository's files (tracked or new, not ignored) into $tmp/$1.
copy_repo() {
	mkdir -p "$tmp/$1"
	(cd "$REPO" && git ls-files -co --exclude-standard -z |
		xargs -0 cp --parents -t "$tmp/$1")
}

# scenario NAME EXPECTED-MESSAGE: run the tampered copy, want a non-zero exit
# and EXPECTED-MESSAGE (a fixed string) in its output.
scenario() {
	local name=$1 want=$2 out=$tmp/$1.log
	log "harness must fail: $name"
	if SELFTEST_OUT="$tmp/$name.out" RESULTS_DIR="$tmp/$name.results" \
		"$tmp/$name/run_tests.sh" >"$out" 2>&1; then
		fail "$name: run_tests.sh exited 0"
	elif ! grep -qF -- "$want" "$out"; then
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

copy_repo wrong_log
echo "this line is not in any verifier log" >"$tmp/wrong_log/expected-logs/spin_lock_missing_unlock.log"
scenario wrong_log "expected: this line is not in any verifier log"

copy_repo missing_prog
echo "no_such_program spin_lock_fail.bpf.o fail" >>"$tmp/missing_prog/selftests/tests.list"
scenario missing_prog "program no_such_program not found"

copy_repo loader_crash
tamper loader_crash selftests/loader.c \
	's|^\tmount_sysfs();$|\tif (!strcmp(argv[2], "spin_lock_counter"))\n\t\tabort();\n&|'
scenario loader_crash "killed by signal 6"

# A loader that hangs: kunit.py's timeout ends the guest, and the selftests
# that never reported fail the run.
copy_repo loader_hang
tamper loader_hang selftests/loader.c \
	's|^\tmount_sysfs();$|\tif (!strcmp(argv[2], "spin_lock_counter"))\n\t\tpause();\n&|'
KUNIT_TIMEOUT=60 scenario loader_hang "selftest spin_lock_counter: did not report"

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
scenario bad_patch "patch does not apply: patches/9999-does-not-apply.patch"
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
