# Sourced by setup.sh: runs a long, quiet step (its output goes to a log) and prints a line every
# ${SWITCHBOARD_SETUP_PROGRESS_SECS:-10} s while it runs, with the time so far and the log's last line, so that
# building code-server's native modules (minutes on 2 cores) never looks like a hang. Needs `say` (setup.sh).

# Runs "$@" with stdin from /dev/null and its output appended to the log; returns its exit status.
# $1 = what runs (for the progress lines), $2 = the log, $3… = the command (a function works too).
run_with_progress() {
  local what="$1" log="$2"; shift 2
  local every="${SWITCHBOARD_SETUP_PROGRESS_SECS:-10}" started pid rc=0 last i
  started=$(date +%s)
  "$@" </dev/null >>"$log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    # wake up often, so a step that ends is noticed at once; report every $every seconds
    for ((i = 0; i < every * 5; i++)); do kill -0 "$pid" 2>/dev/null || break 2; sleep 0.2; done
    last="$(tail -n 1 "$log" 2>/dev/null | tr -cd '[:print:]' | cut -c1-100)"
    say "  … $what: $(( $(date +%s) - started ))s so far${last:+ (log: $last)}"
  done
  wait "$pid" || rc=$?
  return "$rc"
}

# Runs "$@" in directory $1 (in the background job's own subshell, so the caller's directory stays).
in_dir() { cd "$1" && shift && "$@"; }
