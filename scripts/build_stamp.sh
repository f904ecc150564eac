# What a build directory was last built from; sourced, never run.
# shellcheck shell=bash
#
# tree.sh gives files the series did not change their old mtimes back, so
# that make rebuilds only what changed. That is right only if the build
# directory was last built from the tree state those mtimes belong to: a
# build made at another state (a manual make, an interrupted run, a run at
# pristine, the other build directory's state) would keep its objects and
# link them with the new ones. So each build directory records the tree it
# was built from (.built-from, below), and before a build every file that
# differs from that state gets a new mtime. When nothing differs at all,
# the build is left out.

# The record, $dir/.built-from: the commit, a hash of the content built on
# top of it (the edits, e.g. a mutant; the KUnit files, which git ignores;
# the config fragments $@), then the names of the edited files.
stamp_text() {
	git -C "$SRC_DIR" rev-parse HEAD
	{
		git -C "$SRC_DIR" diff
		cat -- "$SRC_DIR/$KUNIT_DIR"/* "$@"
	} | sha256sum | sed 's/^/content /'
	git -C "$SRC_DIR" diff --name-only
}

# before the build: make every file that differs from what $1 was built from newer
stamp_prepare() {
	local dir=$1 stamp=$1/.built-from built files text
	[ -e "$dir/.config" ] || return 0	# nothing built yet
	if [ ! -s "$stamp" ] || ! built=$(head -n 1 "$stamp") ||
	   ! git -C "$SRC_DIR" cat-file -e "$built^{commit}" 2>/dev/null; then
		log "$dir: no record of the tree it was built from; building it from scratch"
		rm -rf "$dir"
		return 0
	fi
	text=$(tail -n +2 "$stamp")
	files=$({ git -C "$SRC_DIR" diff --name-only "$built"; grep -v '^content ' <<<"$text" || true; } |
		sed '/^$/d' | sort -u)
	# a build that fails leaves the directory neither old nor new: no content
	# hash in the record until one succeeds
	grep -v '^content ' "$stamp" >"$stamp.tmp" || true
	mv "$stamp.tmp" "$stamp"
	[ -n "$files" ] || return 0
	log "$dir: built from another tree state; $(wc -l <<<"$files") file(s) differ, rebuilding them"
	(cd "$SRC_DIR" && xargs -r -d '\n' touch -c -- <<<"$files")
}

# after a successful build of $1 with the config fragments $2...
stamp_record() {
	local dir=$1
	shift
	stamp_text "$@" >"$dir/.built-from"
}

# 0 if $1 holds a kernel built from this very tree, KUnit files and config
# fragments ($2...): nothing for make to do, so kunit.py build (16-20 s of
# make walking the tree) can be left out
stamp_fresh() {
	local dir=$1
	shift
	[ -e "$dir/arch/x86/boot/bzImage" ] && [ -s "$dir/.built-from" ] &&
		[ "$(stamp_text "$@")" = "$(cat "$dir/.built-from")" ]
}
