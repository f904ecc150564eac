#!/usr/bin/env bash
# Prepare $SRC_DIR: Debian's linux-source-6.1 as a git tree with a pristine
# commit, patches/ applied with git am, and kunit/ hooked into the build.
#
# Incremental: with patches/ unchanged nothing is touched. With a changed
# series the tree is reset to pristine and the series reapplied; files whose
# content ends up as it was get their old mtimes back, so make rebuilds only
# what really changed.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/common.sh"

STATE=$WORK_DIR/tree-state		# series fingerprint of the applied tree
HOOKS_DIFF=$REPO/scripts/graph_obj_hooks.diff
MTIMES=$WORK_DIR/tree-mtimes		# mtimes of the files the series touched

export GIT_AUTHOR_NAME="bpf-graph harness" GIT_AUTHOR_EMAIL="harness@localhost"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
git_src() { git -C "$SRC_DIR" "$@"; }

[ -r "$TARBALL" ] ||
	die "no $TARBALL: apt-get install linux-source-6.1, or set LINUX_SOURCE_TARBALL"
pkg_version=$(base_version)
tarball_sha=$(sha256sum <"$TARBALL" | cut -d' ' -f1)
# patches/BASE: the version and tarball the series is made for
made_for=$(awk '$1 == "version" { v = $2 } $1 == "sha256" { s = $2 }
	END { print v " (sha256 " s ")" }' "$REPO/patches/BASE")
this_base="$pkg_version (sha256 $tarball_sha)"
[ "$made_for" = "$this_base" ] ||
	log "warning: the series is made for linux-source-6.1 $made_for; this tree is $this_base"

unpack() {
	local tmp=$SRC_DIR.unpack
	log "unpacking $TARBALL (linux-source-6.1 $pkg_version)"
	rm -rf "$tmp" "$SRC_DIR" "$STATE" "$MTIMES"
	mkdir -p "$tmp"
	tar -xf "$TARBALL" -C "$tmp" --strip-components=1
	git -C "$tmp" init -q
	# Debian's top-level .gitignore ignores everything ("/*"): force-add.
	git -C "$tmp" add -A -f
	git -C "$tmp" commit -q -m "linux-source-6.1 $pkg_version (pristine)"
	git -C "$tmp" tag pristine
	echo "$pkg_version" >"$tmp/.pristine-version"
	mv "$tmp" "$SRC_DIR"
}

# The series in order (series_patches); SERIES_UPTO=K (--each-patch) stops
# after the K-th patch.
series() {
	series_patches | awk -v k="${SERIES_UPTO:-}" 'k == "" || NR <= k + 0'
}

# Fingerprint of everything that decides the tree's tracked content.
fingerprint() {
	{
		echo "$pkg_version"
		sha256sum <"$0"
		sha256sum <"$HOOKS_DIFF"
		series | while read -r p; do
			echo "${p##*/} $(sha256sum <"$p")"
		done
	} | sha256sum | cut -d' ' -f1
}

# Record the mtime of every file the applied tree changes against pristine.
save_mtimes() {
	git_src diff --name-only pristine HEAD | while read -r f; do
		[ ! -e "$SRC_DIR/$f" ] || printf '%s %s\n' "$(stat -c %Y "$SRC_DIR/$f")" "$f"
	done >"$MTIMES"
}

# After reapplying, give unchanged files back the mtime they had when built.
restore_mtimes() {
	local old=$1 mtime f
	[ -s "$MTIMES" ] || return 0
	git_src rev-parse -q --verify "$old^{commit}" >/dev/null || return 0
	while read -r mtime f; do
		[ -e "$SRC_DIR/$f" ] || continue
		[ "$(git_src rev-parse -q "$old:$f" 2>/dev/null)" = \
		  "$(git_src rev-parse -q "HEAD:$f" 2>/dev/null)" ] || continue
		touch -d "@$mtime" "$SRC_DIR/$f"
	done <"$MTIMES"
}

# The harness's own commit: hook kunit/ into kernel/bpf's Kconfig and
# Makefile, and route the objects of bpf_obj_new() through its test hooks
# (scripts/graph_obj_hooks.diff, kunit/graph_obj_hooks.c): at every prefix
# of the series, since memalloc.c is the allocator's, not the series'.
hook_kunit() {
	printf '\nsource "%s/Kconfig"\n' "$KUNIT_DIR" >>"$SRC_DIR/kernel/bpf/Kconfig"
	printf '\nobj-$(CONFIG_BPF_GRAPH_KUNIT_TEST) += graph_kunit/\n' \
		>>"$SRC_DIR/kernel/bpf/Makefile"
	git_src apply "$HOOKS_DIFF" ||
		die "the harness's $HOOKS_DIFF does not apply to this tree"
	git_src commit -q -a -m "harness: build the project's KUnit suites from $KUNIT_DIR"
}

apply_series() {
	local old out p patches
	old=$(git_src rev-parse -q --verify applied 2>/dev/null || true)
	git_src am --abort >/dev/null 2>&1 || true
	# The pristine commit leaves ~80,000 loose objects: each git am would
	# start a background gc that competes with the kernel build.
	git_src config gc.auto 0
	git_src reset -q --hard pristine
	mapfile -t patches < <(series)
	for p in "${patches[@]}"; do
		if ! out=$(git_src am -q --whitespace=nowarn "$p" 2>&1); then
			printf '%s\n' "$out" >&2
			git_src am --abort >/dev/null 2>&1 || true
			git_src reset -q --hard pristine
			rm -f "$STATE"
			[ "$made_for" = "$this_base" ] ||
				log "the series is made for linux-source-6.1 $made_for, not $this_base"
			die "patch does not apply: patches/$(basename "$p") (tree left at pristine)"
		fi
	done
	hook_kunit
	if [ -n "$old" ]; then
		restore_mtimes "$old"
	fi
	git_src tag -f applied >/dev/null
	save_mtimes
}

# The KUnit files a prefix of the series can build: a kunit/Makefile line
# tagged "# first patch: NNNN" needs patch NNNN (--each-patch).
kunit_files() {
	local f obj first
	for f in "$REPO"/kunit/*; do
		obj=${f##*/}
		first=$(sed -n "s/.*+= ${obj%.c}\.o.*# first patch: \([0-9]*\).*/\1/p" \
			"$REPO/kunit/Makefile")
		[ -z "${SERIES_UPTO:-}" ] || [ -z "$first" ] ||
			[ "$((10#$first))" -le "$SERIES_UPTO" ] || continue
		echo "$f"
	done
}

# Copy kunit/ into the tree, touching only files whose content changed; a
# prefix of the series gets only the suites it can build, and a Makefile
# without the others.
sync_kunit() {
	local dst=$SRC_DIR/$KUNIT_DIR f mk obj files
	files=$(kunit_files)
	mkdir -p "$dst"
	for f in $files; do
		if [ "${f##*/}" = Makefile ] && [ -n "${SERIES_UPTO:-}" ]; then
			mk=$dst/Makefile.tmp
			cp "$f" "$mk"
			for obj in "$REPO"/kunit/*.c; do
				grep -qx "$obj" <<<"$files" ||
					sed -i "/+= $(basename "$obj" .c)\.o/d" "$mk"
			done
			cmp -s "$mk" "$dst/Makefile" || mv "$mk" "$dst/Makefile"
			rm -f "$mk"
			continue
		fi
		cmp -s "$f" "$dst/${f##*/}" || cp "$f" "$dst/"
	done
	for f in "$dst"/*; do
		grep -qx "$REPO/kunit/${f##*/}" <<<"$files" || rm -f "$f"
	done
}

mkdir -p "$WORK_DIR"
if [ ! -d "$SRC_DIR/.git" ] || [ "$(cat "$SRC_DIR/.pristine-version" 2>/dev/null)" != "$pkg_version" ]; then
	unpack
fi
# Edits in the tree (a mutant of --mutants, an interrupted run, a hand
# edit) are undone: the tree is the series and nothing else. The undone
# files get a new mtime, so make rebuilds them.
if [ -d "$SRC_DIR/.git" ] && [ -n "$(git_src diff --name-only)" ]; then
	log "undoing local edits in the tree: $(git_src diff --name-only | tr '\n' ' ')"
	git_src checkout -q -- .
fi
want=$(fingerprint)
if [ "$(cat "$STATE" 2>/dev/null)" != "$want" ] ||
   [ "$(git_src rev-parse HEAD)" != "$(git_src rev-parse -q --verify applied 2>/dev/null)" ]; then
	log "applying patches/ ($(series | wc -l) patches)"
	apply_series
	echo "$want" >"$STATE"
fi
sync_kunit
# --mutants: one mutant of the applied tree, undone by the next run.
if [ -n "${MUTANT:-}" ]; then
	git_src apply "$MUTANT" || die "mutant does not apply: $MUTANT"
fi
