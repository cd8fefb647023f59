# shellcheck shell=bash
# tools/lib/apt.sh: apt-get that waits for a busy apt/dpkg lock.
# Sourced by tools/install-deps and tools/qemu-lam/build.
#
#   apt_wait ARGS...   apt-get ARGS..., as root (sudo when not root); while
#                      another program holds the apt or dpkg lock, waits
#                      (bounded by LAM_APT_LOCK_WAIT seconds, default 600)
#                      with one message, then retries; its output goes to
#                      stderr.  Returns apt-get's status.
#   apt_update_once    apt-get update, at most once per process.

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
