# shellcheck shell=bash
# test/lib/tap.sh: writing and reading TAP, in one place.
# Writing, for a host suite (sourced by test/*/run):
#   tap 0|1 TEXT [DETAIL_FILE]   prints "ok N - TEXT", or "not ok N - TEXT"
#                                and DETAIL_FILE as "#" lines: all of it up
#                                to 30 lines, else its first 10 and last 20
#   tap_done                     exits 0 iff no line was "not ok"
# test/run-all checks the plan the suite printed against the lines counted.
#
# Reading: the one parser of the project's TAP (run-all, run-matrix, the
# emulator suite, and tools/lib/tap2junit.py through the command below):
#   tap_classify LINE   sets TAP_KIND to what LINE is, with a carriage
#                       return dropped:
#     ok      "ok [N] [DESC]"
#     notok   "not ok [N] [DESC]", whatever its directive: a failure is
#             never hidden
#     skip    "ok [N] DESC" whose DESC has the directive "# SKIP" (the word
#             in any case, spaces after "#" optional, "# skipped" too): a
#             skip is never a pass
#     plan    "1..N" (TAP_PLAN=N)
#     bail    "Bail out!..."
#     other   anything else (diagnostics, console output)
#   and TAP_NUM (N or empty), TAP_DESC (the text after the number, "- "
#   included) and TAP_LINE (LINE without the carriage return).
#   bash test/lib/tap.sh --classify < TAP   prints one line per input line:
#     KIND<TAB>NUM<TAB>PLAN<TAB>DESC, DESC the whole line for other and bail
n=0 failed=0

tap_classify() {
	TAP_LINE=${1//$'\r'/} TAP_NUM="" TAP_DESC="" TAP_PLAN=""
	if [[ $TAP_LINE =~ ^(not\ )?ok(\ +([0-9]+))?(\ (.*))?$ ]]; then
		TAP_NUM=${BASH_REMATCH[3]} TAP_DESC=${BASH_REMATCH[5]}
		if [[ -n ${BASH_REMATCH[1]} ]]; then
			TAP_KIND=notok
		elif [[ $TAP_DESC =~ (^|[[:space:]])#[[:space:]]*[Ss][Kk][Ii][Pp] ]]; then
			TAP_KIND=skip
		else
			TAP_KIND=ok
		fi
	elif [[ $TAP_LINE =~ ^1\.\.([0-9]+) ]]; then
		TAP_KIND=plan TAP_PLAN=${BASH_REMATCH[1]}
	elif [[ $TAP_LINE == "Bail out!"* ]]; then
		TAP_KIND=bail
	else
		TAP_KIND=other
	fi
}

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

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	[[ ${1-} == --classify && $# == 1 ]] || {
		echo "usage: bash test/lib/tap.sh --classify < TAP" >&2
		exit 2
	}
	while IFS= read -r line || [[ -n $line ]]; do
		tap_classify "$line"
		case $TAP_KIND in
			other|bail) TAP_DESC=$TAP_LINE ;;
		esac
		printf '%s\t%s\t%s\t%s\n' "$TAP_KIND" "$TAP_NUM" "$TAP_PLAN" "$TAP_DESC"
	done
fi
