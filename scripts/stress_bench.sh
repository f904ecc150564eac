#!/usr/bin/env bash
# ./run_tests.sh --stress-bench [OPS]
#
# The stress selftest (runner/stress.c) alone, OPS operations per CPU
# (default 100000), in guests of 1, 2 and 4 vCPUs (TCG), on the suite's
# kernel: prints ops/s per CPU and in all for each. A benchmark, not a test:
# it fails only if the stress test fails.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"

ops=${1:-100000}
[[ $ops =~ ^[0-9]+$ ]] || die "--stress-bench: OPS must be a number, not $ops"
# the derived manifest's stress entry, with OPS operations
edit="awk -v ops=$ops '\$3 == \"stress\" { \$NF = ops; print; n++ } END { exit !n }'"

printf '%-6s %-14s %-14s %s\n' vCPUs "ops/s per CPU" "ops/s in all" seconds
for cpus in 1 2 4; do
	log="$WORK_DIR/stress-bench-$cpus.txt"
	KERNEL_ARGS=bpf_graph_obj_poison=0 MANIFEST_EDIT=$edit GUEST_CPUS=$cpus "$REPO/run_tests.sh" 'bpf_graph_progs.*' >"$log" 2>&1 ||
		die "the stress run with $cpus vCPU(s) failed (see $log)"
	line=$(grep -o 'stress: [0-9]* CPU(s) x [0-9]* ops in [0-9.]* s: [0-9]* ops/s per CPU' \
		"$RESULTS_DIR/console.log" | tail -1)
	[ -n "$line" ] || die "no stress report in $RESULTS_DIR/console.log"
	read -r n secs per_cpu < <(sed -E 's/stress: ([0-9]+) CPU\(s\) x [0-9]+ ops in ([0-9.]+) s: ([0-9]+) .*/\1 \2 \3/' <<<"$line")
	printf '%-6s %-14s %-14s %s\n' "$n" "$per_cpu" "$((per_cpu * n))" "$secs"
done
