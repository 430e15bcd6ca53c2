# Sourced by the check scripts of this directory. run_captured DEFAULT_TIMEOUT COMMAND [ARGS...]
# echoes the command, runs it with stdout and stderr in the file $out (removed at exit) within
# timeout_s = VPATCH_TEST_TIMEOUT seconds (default DEFAULT_TIMEOUT; SIGKILL 5 s later) and
# sets rc to its exit code (124 or 137: the timeout).
run_captured() {
  timeout_s=${VPATCH_TEST_TIMEOUT:-$1}
  shift
  out=$(mktemp)
  trap 'rm -f "$out"' EXIT
  echo "+ $*"
  timeout -k 5 "$timeout_s" "$@" >"$out" 2>&1
  rc=$?
}
