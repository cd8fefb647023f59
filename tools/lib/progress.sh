# shellcheck shell=bash
# tools/lib/progress.sh: show that a long, otherwise quiet step is alive.
#
#   CMD 2>&1 | progress LABEL LOG
#     Copies every line of CMD's output to LOG and shows progress on stderr:
#     on a terminal, one line rewritten in place (the last "[N/M]" ninja
#     prints, or the number of objects kbuild has compiled, and the elapsed
#     time); elsewhere (CI logs), one plain line every LAM_PROGRESS_EVERY
#     seconds (default 60).  Ends with a newline on a terminal.
#   The caller takes CMD's status from PIPESTATUS[0].

progress() {
	local label=$1 log=$2 line last="" objs=0 t0=$SECONDS now lastshow=$SECONDS tty=0
	local every=${LAM_PROGRESS_EVERY:-60}
	[[ -t 2 ]] && tty=1
	: >"$log"
	while IFS= read -r line; do
		printf '%s\n' "$line" >>"$log"
		if [[ $line =~ ^\[([0-9]+/[0-9]+)\] ]]; then
			last="[${BASH_REMATCH[1]}]"
		elif [[ $line =~ ^\ \ (CC|AS|LD|AR|HOSTCC|OBJCOPY)\  ]]; then
			objs=$((objs + 1))
			last="$objs objects"
		fi
		now=$SECONDS
		if ((tty)); then
			((now != lastshow)) || continue
			printf '\r%s: %s, %d s ' "$label" "${last:-starting}" "$((now - t0))" >&2
			lastshow=$now
		elif ((now - lastshow >= every)); then
			printf '%s: %s, %d s\n' "$label" "${last:-working}" "$((now - t0))" >&2
			lastshow=$now
		fi
	done
	((tty)) && printf '\r%s: %s, %d s\n' "$label" "${last:-done}" "$((SECONDS - t0))" >&2
	return 0
}
