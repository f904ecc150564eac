# Shared helpers for the harness scripts; sourced, never run.
# shellcheck shell=bash

log() { printf '==> %s\n' "$*" >&2; }
# Exit status 2: the harness could not run the tests (1 is for a failed test).
# The reason goes to run_tests.sh's run.json, from this shell (EXIT_REASON)
# or from a script it runs (RUN_REASON_FILE).
die() {
	printf 'error: %s\n' "$*" >&2
	# shellcheck disable=SC2034	# read by run_tests.sh's EXIT trap
	EXIT_REASON=$*
	[ -z "${RUN_REASON_FILE:-}" ] || printf '%s\n' "$*" >>"$RUN_REASON_FILE"
	exit 2
}

# Defaults; every one can be overridden from the environment.
: "${WORK_DIR:=$REPO/.work}"
: "${SRC_DIR:=$WORK_DIR/linux}"
: "${SELFTEST_OUT:=$WORK_DIR/selftests}"
: "${RESULTS_DIR:=$WORK_DIR/results}"
: "${KUNIT_TIMEOUT:=300}"
: "${GUEST_CPUS:=2}"
export WORK_DIR SRC_DIR SELFTEST_OUT RESULTS_DIR KUNIT_TIMEOUT GUEST_CPUS

# shellcheck disable=SC2034	# used by the scripts that source this one
KUNIT_DIR=kernel/bpf/graph_kunit	# where kunit/ lands in the tree (git ignores it)

# The tree the series applies to: Debian's linux-source-6.1 tarball, or
# another one (LINUX_SOURCE_TARBALL=PATH); patches/BASE names the one the
# series is made for. base_version: the package's version, or for another
# tarball "tarball-" and the start of its sha256.
TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
base_version() {
	if [ -n "${LINUX_SOURCE_TARBALL:-}" ]; then
		echo "tarball-$(sha256sum <"$TARBALL" | cut -c1-12)"
	else
		dpkg-query -W -f='${Version}' linux-source-6.1
	fi
}

# kunit.py COMMAND [ARGS...] on the tree in $SRC_DIR, with the build dir
# $KUNIT_BUILD_DIR and the kunitconfigs of the array KUNIT_CONFIGS; its
# output is appended to $KUNIT_LOG, and shown too when KUNIT_SHOW is set.
# A build goes through ccache where it is installed (CCACHE=0: not): a
# prefix, a mutant or a fresh build directory compiles what the cache has
# seen once.
kunit_py() {
	local cmd=$1
	shift
	set -- "$cmd" --arch=x86_64 --build_dir="$KUNIT_BUILD_DIR" \
		"${KUNIT_CONFIGS[@]/#/--kunitconfig=}" "$@"
	if [ "$cmd" = build ] && [ "${CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
		set -- "$@" --make_options="CC=ccache gcc"
	fi
	if [ -n "${KUNIT_SHOW:-}" ]; then
		(cd "$SRC_DIR" && python3 tools/testing/kunit/kunit.py "$@") 2>&1 |
			tee -a "$KUNIT_LOG"
		return "${PIPESTATUS[0]}"
	fi
	(cd "$SRC_DIR" && python3 tools/testing/kunit/kunit.py "$@") >>"$KUNIT_LOG" 2>&1
}

# The patches of the series in order, one path a line; the cover letter
# (0000-cover-letter.patch) has no diff and is none of them.
series_patches() {
	local p
	for p in "$REPO"/patches/*.patch; do
		[ -e "$p" ] && [ "${p##*/}" != 0000-cover-letter.patch ] || continue
		echo "$p"
	done
	return 0
}

# kunitconfig ($1, default the repo's) without the options the tree at
# $SRC_DIR (a prefix of the series, or none of it) does not define: kunit.py
# refuses a config that loses an option.
prefix_kunitconfig() {
	local line sym defined
	defined=$(grep -rhsE --include='Kconfig*' '^(menu)?config ' "$SRC_DIR" |
		sed 's/^menuconfig/config/' | sort -u)
	while read -r line; do
		case $line in CONFIG_*) ;; *) continue ;; esac
		sym=${line%%=*}
		! grep -qx "config ${sym#CONFIG_}" <<<"$defined" || echo "$line"
	done <"${1:-$REPO/kunitconfig}"
}

# What the guest's test_verifier runs: $1/run-cases, the cases of
# TEST_VERIFIER_CASES (FIRST-LAST, default all), and $1/expected, what each
# of their variants must report: the pristine kernel's results
# (tests/test_verifier/baseline-VERSION.txt, else one made now) with the
# verdicts and messages the series changes on purpose
# (tests/test_verifier/changes.txt; under --each-patch those of the patches
# applied).
make_test_verifier_expected() {
	local dir=$1 version baseline range=${TEST_VERIFIER_CASES:-0-999999}
	[[ $range =~ ^[0-9]+-[0-9]+$ ]] ||
		die "TEST_VERIFIER_CASES=$range: want FIRST-LAST, case numbers of test_verifier"
	awk -F'\t' -v a="${range%-*}" -v b="${range#*-}" '$1 >= a + 0 && $1 <= b + 0' \
		"$dir/cases" >"$dir/run-cases"
	[ -s "$dir/run-cases" ] || die "TEST_VERIFIER_CASES=$range names no case of test_verifier"
	version=$(base_version)
	baseline=$REPO/tests/test_verifier/baseline-$version.txt
	if [ ! -e "$baseline" ]; then
		baseline=$WORK_DIR/test_verifier/baseline-$version.txt
		if [ ! -e "$baseline" ]; then
			log "no test_verifier baseline for linux-source-6.1 $version in tests/test_verifier/:" \
				"making one (a pristine kernel build, about 15 minutes; commit it there)"
			"$REPO/scripts/test_verifier_baseline.sh" "$baseline"
		fi
	fi
	python3 "$REPO/scripts/test_verifier_expected.py" "$dir/cases" "$dir/run-cases" "$baseline" \
		"$REPO/tests/test_verifier/changes.txt" ${SERIES_UPTO:+"$SERIES_UPTO"} >"$dir/expected.tmp" ||
		die "cannot make the test_verifier expectations (see above)"
	mv "$dir/expected.tmp" "$dir/expected"
}
