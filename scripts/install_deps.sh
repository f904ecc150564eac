#!/usr/bin/env bash
# Install the Debian packages the harness needs; name any that cannot be had.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"

packages=(
	linux-source-6.1 build-essential clang llvm dwarves libbpf-dev libelf-dev
	zlib1g-dev libzstd-dev bpftool qemu-system-x86 python3 flex bison bc
	libssl-dev cpio kmod git libcap-dev shellcheck
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" -eq 0 ] || die "missing packages: ${missing[*]} (run as root, or apt-get install them)"
log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || die "apt-get update failed"
if ! apt-get install -y -qq "${missing[@]}" >/dev/null; then
	for p in "${missing[@]}"; do
		apt-get install -y -qq "$p" >/dev/null 2>&1 ||
			printf 'error: cannot install package %s\n' "$p" >&2
	done
	die "package installation failed"
fi
