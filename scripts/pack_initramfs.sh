#!/usr/bin/env bash
# Pack the guest's initramfs: loader, BPF objects, manifest and expected logs,
# and test_verifier with the cases to run and (if made) their expected results.
# MANIFEST: the manifest of the run (default: the one derived by make).
# Usage: pack_initramfs.sh OUTPUT.cpio
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"

out=$1
stage=$SELFTEST_OUT/initramfs
rm -rf "$stage"
mkdir -p "$stage"/{selftests,expected-logs,test_verifier,tmp,sys,proc}
cp "$SELFTEST_OUT"/loader "$SELFTEST_OUT"/*.bpf.o "$stage/selftests/"
cp "${MANIFEST:-$SELFTEST_OUT/tests.list}" "$stage/selftests/tests.list"
tv=$SELFTEST_OUT/test_verifier
cp "$tv/test_verifier" "$stage/test_verifier/"
if [ -e "$tv/expected" ]; then
	cp "$tv/expected" "$stage/test_verifier/"
	cp "$tv/run-cases" "$stage/test_verifier/cases"
else
	cp "$tv/cases" "$stage/test_verifier/"
fi
if compgen -G "$REPO/expected-logs/*.log" >/dev/null; then
	cp "$REPO"/expected-logs/*.log "$stage/expected-logs/"
fi
# upstream's graph selftests (UPSTREAM_SELFTESTS) and their table messages
up=$SELFTEST_OUT/upstream
if [ -d "$up" ]; then
	cp "$up"/*.bpf.o "$stage/selftests/"
	if compgen -G "$up/msgs/*.msg" >/dev/null; then
		cp "$up"/msgs/*.msg "$stage/expected-logs/"
	fi
fi
(cd "$stage" && find . | LC_ALL=C sort | cpio --quiet -o -H newc) >"$out.tmp"
mv "$out.tmp" "$out"
