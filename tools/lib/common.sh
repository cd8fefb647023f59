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
#                    ~/.cache/lam (the Makefile sets LAM_CACHE by the same
#                    rule, so tools run by make and by hand agree)
#   lam_variants     the kernel variants, one per line: the names of
#                    defconfig.d/*.config but base, sorted
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
