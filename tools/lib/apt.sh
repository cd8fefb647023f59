# shellcheck shell=bash
# tools/lib/apt.sh: apt-get that waits for a busy apt/dpkg lock.
# Sourced by tools/install-deps, tools/fetch-kernel, tools/qemu-lam/build and
# tools/lam-debian.
#
#   apt_wait ARGS...   apt-get ARGS..., as root (sudo when not root); while
#                      another program holds the apt or dpkg lock, waits
#                      (bounded by LAM_APT_LOCK_WAIT seconds, default 600)
#                      with one message, then retries; its output goes to
#                      stderr.  Returns apt-get's status.
#   apt_update_once    apt-get update, at most once per process.
#   apt_have_deb_src   true if some enabled apt source has a deb-src entry
#   apt_add_deb_src FILE  mirror the enabled "deb" entries as "deb-src"
#                      entries in FILE (deb822), then apt-get update (for
#                      apt-get source: tools/qemu-lam/build, tools/lam-debian)
#   apt_source NAME VERSION DIR  the source package NAME=VERSION downloaded
#                      into DIR (apt-get source --download-only; deb-src
#                      entries added if there are none, apt-get update and
#                      one retry on failure); one line on stderr, status 1
#                      (test/hwasan)
#   apt_linux_source REV DIR  Debian's linux source package REV (6.1.176-1)
#                      downloaded once into DIR (.dsc, .debian.tar.xz, the
#                      orig tarball); on failure one line on stderr, status 1
#                      (tools/lam-debian, test/debian-stock-code)

: "${LAM_APT_LOCK_WAIT:=600}"

apt_as_root() {
	if [[ $(id -u) -eq 0 ]]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		printf 'apt: need root for: %s\n' "$*" >&2
		return 1
	fi
}

apt_wait() {
	local out rc waited=0 said=0
	out=$(mktemp "${TMPDIR:-/tmp}/apt-wait.XXXXXX") || return 1
	while :; do
		rc=0
		# DPkg::Lock::Timeout covers the dpkg frontend lock; the loop
		# covers the lists lock of 'apt-get update' and older apt.
		apt_as_root env DEBIAN_FRONTEND=noninteractive \
			apt-get -o DPkg::Lock::Timeout=60 "$@" >"$out" 2>&1 || rc=$?
		cat "$out" >&2
		if ((rc != 0)) && grep -qE 'Could not get lock|Unable to lock|is another process using it' "$out" &&
			((waited < LAM_APT_LOCK_WAIT)); then
			if ((!said)); then
				printf 'apt: another program holds the apt/dpkg lock; waiting up to %s s\n' \
					"$LAM_APT_LOCK_WAIT" >&2
				said=1
			fi
			sleep 5
			waited=$((waited + 5))
			continue
		fi
		rm -f "$out"
		((rc == 0 || waited < LAM_APT_LOCK_WAIT)) ||
			printf 'apt: the apt/dpkg lock was still held after %s s\n' "$waited" >&2
		return "$rc"
	done
}

apt_updated=0
apt_update_once() {
	((apt_updated)) && return 0
	printf 'apt: apt-get update\n' >&2
	apt_wait update -q || return 1
	apt_updated=1
}

apt_have_deb_src() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] && grep -Eqs '^[[:space:]]*deb-src[[:space:]]' "$f" && return 0
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && grep -Eiqs '^Types:.*deb-src' "$f" && return 0
	done
	return 1
}

apt_add_deb_src() {
	local tmp f dest=$1
	tmp=$(mktemp)
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		# deb822 stanzas whose Types has "deb"; keep URIs/Suites/Components/Signed-By
		awk '
			function flush() {
				if (isdeb && uris != "") {
					print "Types: deb-src"; print uris; print suites
					if (comps != "") print comps
					if (signed != "") print signed
					print ""
				}
				isdeb = 0; uris = suites = comps = signed = ""
			}
			/^[[:space:]]*$/ { flush(); next }
			/^#/ { next }
			tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") isdeb = 1; next }
			tolower($1) == "uris:" { uris = $0; next }
			tolower($1) == "suites:" { suites = $0; next }
			tolower($1) == "components:" { comps = $0; next }
			tolower($1) == "signed-by:" { signed = $0; next }
			tolower($1) == "enabled:" && tolower($2) == "no" { isdeb = 0; uris = "x"; next }
			END { flush() }
		' "$f" | sed '/^URIs: x$/d' >>"$tmp"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		sed -n 's/^[[:space:]]*deb[[:space:]]\+\(.*\)$/\1/p' "$f" | while read -r line; do
			# one-line format: [options] uri suite components...
			# shellcheck disable=SC2086 # split the line into words
			set -- $line
			opts="" uri=""
			if [ "${1#\[}" != "$1" ]; then
				while [ $# -gt 0 ]; do
					opts="$opts ${1#\[}"; shift
					case "$opts" in *\]) break ;; esac
				done
				opts=${opts%\]}
			fi
			uri=$1; shift
			printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: %s\n' "$uri" "$1" "${*:2}"
			case "$opts" in *signed-by=*)
				opts=${opts##*signed-by=}; printf 'Signed-By: %s\n' "${opts%% *}" ;;
			esac
			printf '\n'
		done >>"$tmp"
	done
	if [ ! -s "$tmp" ]; then
		rm -f "$tmp"
		printf 'apt: no "deb" apt source found to mirror as deb-src\n' >&2
		return 1
	fi
	printf 'apt: adding %s\n' "$dest" >&2
	apt_as_root install -m 0644 "$tmp" "$dest" || { rm -f "$tmp"; return 1; }
	rm -f "$tmp"
	# the new entry has no index yet: apt must fetch it before 'apt-get source'
	apt_updated=0
	apt_update_once
}

apt_source() {
	local name=$1 version=$2 dl=$3
	mkdir -p "$dl" || return 1
	if ! apt_have_deb_src && ! apt_add_deb_src /etc/apt/sources.list.d/lam-src.sources; then
		printf 'apt: no deb-src entry in apt'"'"'s sources and none could be added (needs root)\n' >&2
		return 1
	fi
	printf 'apt: apt-get source --download-only %s=%s\n' "$name" "$version" >&2
	(cd "$dl" && apt-get source --download-only -q "$name=$version" >"$dl/download.log" 2>&1) || {
		apt_update_once >/dev/null 2>&1 || true
		(cd "$dl" && apt-get source --download-only -q "$name=$version" >"$dl/download.log" 2>&1)
	} || {
		printf 'apt: apt-get source %s=%s failed: %s\n' "$name" "$version" \
			"$(tail -n 1 "$dl/download.log")" >&2
		return 1
	}
}

apt_linux_source() {
	local rev=$1 dl=$2 upstream=${1%-*} f
	mkdir -p "$dl" || return 1
	if [[ ! -f $dl/linux_$rev.dsc ]]; then
		apt_source linux "$rev" "$dl" || return 1
	fi
	for f in "linux_$rev.dsc" "linux_$rev.debian.tar.xz" "linux_$upstream.orig.tar.xz"; do
		[[ -f $dl/$f ]] || { printf 'apt: apt-get source gave no %s\n' "$f" >&2; return 1; }
	done
}
