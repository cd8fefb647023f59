# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# tools/lib/common.sh: what the project's shell tools and host test suites
# share.  Set prog (the name messages start with), then source this file:
#   prog=NAME
#   # shellcheck source-path=SCRIPTDIR
#   . "$top/tools/lib/common.sh"
#
#   die MSG [RC]     "prog: MSG" on stderr, exit RC (default 1)
#   usage_die MSG    the same, exit 2 (bad usage or input)
#   note MSG         "prog: MSG" on stderr
#   warn MSG         "prog: warning: MSG" on stderr
#   lam_top          the project's top directory (where this file lives)
#   lam_cache        the cache: $LAM_CACHE, else $XDG_CACHE_HOME/lam, else
#                    ~/.cache/lam (the Makefiles ask this file too, so
#                    tools run by make and by hand agree)
#   lam_variants     the kernel variants, one per line: the names of
#                    defconfig.d/*.config but base, sorted (the Makefile's
#                    VARIANTS too)
#   lam_content      one line: a hash of the files under overlay/ and test/
#                    as they are in the work tree (what a run of make test
#                    measured; docs/figures.md carries the one of its run)
#   lam_machine      one line: cores, CPU model, memory, OS
lam_top=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
# shellcheck disable=SC2034 # for the scripts that source this file
lam_cache=${LAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lam}

die() {
	local rc=1

	# a numeric last argument is the exit status
	if (($# > 1)) && [[ ${!#} =~ ^[0-9]+$ ]]; then
		rc=${!#}
		set -- "${@:1:$#-1}"
	fi
	printf '%s: %s\n' "${prog:-lam}" "$*" >&2
	exit "$rc"
}

usage_die() { die "$*" 2; }
note() { printf '%s: %s\n' "${prog:-lam}" "$*" >&2; }
warn() { printf '%s: warning: %s\n' "${prog:-lam}" "$*" >&2; }

lam_variants() {
	local f

	for f in "$lam_top"/defconfig.d/*.config; do
		f=${f##*/}
		f=${f%.config}
		[[ $f == base || $f == '*' ]] || printf '%s\n' "$f"
	done | LC_ALL=C sort
}

lam_content() {
	(
		cd "$lam_top" || exit 1
		if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
			git ls-files -z -- overlay test
		else
			find overlay test -type f -print0 | LC_ALL=C sort -z
		fi | xargs -0 sha256sum | sha256sum | cut -c1-16
	)
}

lam_machine() {
	local model mem os=unknown

	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1048576 + 0.5 }' /proc/meminfo)
	[[ -r /etc/os-release ]] && os=$(sed -n 's/^PRETTY_NAME=//p' /etc/os-release | tr -d '"')
	printf '%s cores, %s, %s GiB, %s\n' "$(nproc)" "${model:-unknown CPU}" "$mem" "$os"
}
