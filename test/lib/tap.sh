# shellcheck shell=bash
# test/lib/tap.sh: the TAP lines of a host suite (sourced by test/*/run).
#   tap 0|1 TEXT [DETAIL_FILE]   prints "ok N - TEXT", or "not ok N - TEXT"
#                                and DETAIL_FILE as "#" lines: all of it up
#                                to 30 lines, else its first 10 and last 20
#   tap_done                     exits 0 iff no line was "not ok"
# test/run-all checks the plan the suite printed against the lines counted.
n=0 failed=0

tap_detail() {
	local lines

	lines=$(wc -l <"$1")
	if ((lines <= 30)); then
		sed 's/^/#   /' "$1"
	else
		sed -n '1,10s/^/#   /p' "$1"
		printf '#   ... (%d lines more)\n' $((lines - 30))
		tail -n 20 "$1" | sed 's/^/#   /'
	fi
}

tap() {
	n=$((n + 1))
	if [[ $1 == 0 ]]; then
		printf 'ok %d - %s\n' "$n" "$2"
	else
		failed=$((failed + 1))
		printf 'not ok %d - %s\n' "$n" "$2"
		[[ -n ${3-} && -s $3 ]] && tap_detail "$3"
	fi
	return 0
}

tap_done() {
	exit $((failed > 0))
}
