#!/usr/bin/env bash
# Pack the guest's initramfs: loader, BPF objects, manifest and expected logs.
# MANIFEST: the manifest of the run (default: the one derived by make).
# Usage: pack_initramfs.sh OUTPUT.cpio
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"

out=$1
stage=$SELFTEST_OUT/initramfs
rm -rf "$stage"
mkdir -p "$stage"/{selftests,expected-logs,tmp,sys,proc}
cp "$SELFTEST_OUT"/loader "$SELFTEST_OUT"/*.bpf.o "$stage/selftests/"
cp "${MANIFEST:-$SELFTEST_OUT/tests.list}" "$stage/selftests/tests.list"
if compgen -G "$REPO/expected-logs/*.log" >/dev/null; then
	cp "$REPO"/expected-logs/*.log "$stage/expected-logs/"
fi
(cd "$stage" && find . | LC_ALL=C sort | cpio --quiet -o -H newc) >"$out.tmp"
mv "$out.tmp" "$out"
