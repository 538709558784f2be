#!/bin/sh
# npm run cdktf|diff|deploy|destroy: the cdktf CLI without telemetry or its version check (no
# network call), and without the plan files `cdktf diff` leaves in the output folder: they hold
# every value of the plan, secrets included, in plain text. They are removed on every way out:
# cdktf's own exit (any status), and SIGINT, SIGTERM or SIGHUP to this script (Ctrl-C, `kill`, a
# cancelled CI job, a closed terminal). Only SIGKILL leaves them (nothing runs after it).
export CHECKPOINT_DISABLE=1 DISABLE_VERSION_CHECK=1 CDKTF_DISABLE_PLUGIN_CACHE_ENV=1
# The app learns the command (stacks/retired-stacks.ts: `deploy` leaves a retired cluster's stacks out).
export HCP_AZURE_CDKTF_COMMAND="${1:-}"
out=${CDKTF_OUTDIR:-cdktf.out}
child=

remove_plans() {
  if [ -d "$out/stacks" ]; then
    find "$out/stacks" -mindepth 2 -maxdepth 2 -type f -name plan -exec rm -f {} +
  fi
}

# $1: the signal, $2: the exit status a shell gives for it (128 + its number).
on_signal() {
  # Pass it on (a signal sent to this script alone, as `kill` or a CI runner may, would otherwise
  # leave cdktf running and writing plans), and wait until cdktf is gone before cleaning up.
  if [ -n "$child" ]; then
    kill -s "$1" "$child" 2>/dev/null
    while kill -0 "$child" 2>/dev/null; do wait "$child"; done
  fi
  remove_plans
  # Die of the same signal, so that npm, a calling shell loop or CI sees an interrupted command.
  trap - EXIT "$1"
  kill -s "$1" $$
  exit "$2"
}

trap remove_plans EXIT
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM
trap 'on_signal HUP 129' HUP

# cdktf runs in the background so that a trap can run while it does (a shell runs traps only
# between commands; `wait` returns at once on a trapped signal). A background command's standard
# input would be /dev/null: cdktf gets this script's (deploy asks for approval on it). It is a
# Node.js program, which restores the default SIGINT action the shell sets to "ignore" for
# background commands, so Ctrl-C from the terminal reaches it as it did in the foreground.
if (exec 3<&0) 2>/dev/null; then exec 3<&0; else exec 3</dev/null; fi
cdktf "$@" 0<&3 3<&- &
child=$!
exec 3<&-
status=0
wait "$child" || status=$?
exit "$status"
