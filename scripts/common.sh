# Shared helpers for the harness scripts; sourced, never run.
# shellcheck shell=bash

log() { printf '==> %s\n' "$*" >&2; }
# Exit status 2: the harness could not run the tests (1 is for a failed test).
die() { printf 'error: %s\n' "$*" >&2; exit 2; }

# Defaults; every one can be overridden from the environment.
: "${WORK_DIR:=$REPO/.work}"
: "${SRC_DIR:=$WORK_DIR/linux}"
: "${SELFTEST_OUT:=$WORK_DIR/selftests}"
: "${RESULTS_DIR:=$WORK_DIR/results}"
: "${KUNIT_TIMEOUT:=300}"
: "${GUEST_CPUS:=2}"
export WORK_DIR SRC_DIR SELFTEST_OUT RESULTS_DIR KUNIT_TIMEOUT GUEST_CPUS

KUNIT_DIR=kernel/bpf/graph_kunit	# where kunit/ lands in the tree (git ignores it)
