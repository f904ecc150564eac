# What a build directory was last built from; sourced, never run.
# shellcheck shell=bash
#
# tree.sh gives files the series did not change their old mtimes back, so
# that make rebuilds only what changed. That is right only if the build
# directory was last built from the tree state those mtimes belong to: a
# build made at another state (a manual make, an interrupted run, a run at
# pristine, the other build directory's state) would keep its objects and
# link them with the new ones. So each build directory records the tree it
# was built from (.built-from: the commit, and the files the working tree
# changed on top of it, e.g. a mutant), and before a build every file that
# differs from that state gets a new mtime.

# before the build: make every file that differs from what $1 was built from newer
stamp_prepare() {
	local dir=$1 stamp=$1/.built-from built files
	rm -f "$dir/.built-state"	# a build that fails leaves it neither old nor new
	[ -e "$dir/.config" ] || return 0	# nothing built yet
	if [ ! -s "$stamp" ] || ! built=$(head -n 1 "$stamp") ||
	   ! git -C "$SRC_DIR" cat-file -e "$built^{commit}" 2>/dev/null; then
		log "$dir: no record of the tree it was built from; building it from scratch"
		rm -rf "$dir"
		return 0
	fi
	files=$({ git -C "$SRC_DIR" diff --name-only "$built"; tail -n +2 "$stamp"; } | sort -u)
	[ -n "$files" ] || return 0
	log "$dir: built from another tree state; $(wc -l <<<"$files") file(s) differ, rebuilding them"
	(cd "$SRC_DIR" && xargs -r -d '\n' touch -c -- <<<"$files")
}

# what a build is made from, by content: the commit, the edits on top of
# it (a mutant), the KUnit files (which git ignores) and the config
# fragments ($@)
stamp_state() {
	git -C "$SRC_DIR" rev-parse HEAD
	git -C "$SRC_DIR" diff | sha256sum
	cat -- "$SRC_DIR/$KUNIT_DIR"/* "$@" | sha256sum
}

# after a successful build of $1 with the config fragments $2...: record
# the tree it was built from, and the whole state for stamp_fresh
stamp_record() {
	local dir=$1
	shift
	{
		git -C "$SRC_DIR" rev-parse HEAD
		git -C "$SRC_DIR" diff --name-only
	} >"$dir/.built-from"
	stamp_state "$@" >"$dir/.built-state"
}

# 0 if $1 holds a kernel built from this very tree and config fragments
# ($2...): nothing for make to do, so kunit.py build (20 s of make walking
# the tree) can be left out
stamp_fresh() {
	local dir=$1
	shift
	[ -e "$dir/arch/x86/boot/bzImage" ] && [ -s "$dir/.built-state" ] &&
		[ "$(stamp_state "$@")" = "$(cat "$dir/.built-state")" ]
}
