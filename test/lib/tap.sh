# shellcheck shell=bash
# test/lib/tap.sh: the TAP lines of a host suite (sourced by test/*/run).
#   tap 0|1 TEXT [DETAIL_FILE]   prints "ok N - TEXT", or "not ok N - TEXT"
#                                and DETAIL_FILE's first 20 lines as "#" lines
#   tap_done                     exits 0 iff no line was "not ok"
# test/run-all checks the plan the suite printed against the lines counted.
n=0 failed=0

tap() {
	n=$((n + 1))
	if [[ $1 == 0 ]]; then
		printf 'ok %d - %s\n' "$n" "$2"
	else
		failed=$((failed + 1))
		printf 'not ok %d - %s\n' "$n" "$2"
		[[ -n ${3-} && -s $3 ]] && sed -n '1,20s/^/#   /p' "$3"
	fi
	return 0
}

tap_done() {
	exit $((failed > 0))
}
