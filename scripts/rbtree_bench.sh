#!/usr/bin/env bash
# ./run_tests.sh --rbtree-bench [N,N...]
#
# The BPF rbtree against the same tree in C, in one boot of the suite's
# kernel (1 vCPU, TCG): for each N (default 100,1000,10000,100000), N adds
# then N first+remove, in BPF (selftests/progs/rbtree_bench.bpf.c) and in
# C (kunit/graph_bench.c) with the same keys. Prints ns per operation and
# the ratio, best of three. A benchmark, not a test.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"

sizes=${1:-100,1000,10000,100000}
[[ $sizes =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--rbtree-bench: sizes are N,N,..."
mkdir -p "$WORK_DIR"
manifest=$WORK_DIR/rbtree-bench.list
echo "rbtree_bench rbtree_bench.bpf.o bench $sizes" >"$manifest"
log="$WORK_DIR/rbtree-bench.txt"
# the kernel a user builds: the harness's object hooks (counts, poison) off
KERNEL_ARGS=bpf_graph_obj_hooks=0 MANIFEST=$manifest GUEST_CPUS=1 "$REPO/run_tests.sh" rbtree_bench >"$log" 2>&1 ||
	die "the benchmark run failed (see $log)"
grep -ao 'bench: .*' "$RESULTS_DIR/console.log" | sed 's/^\(bench: \)*//'
