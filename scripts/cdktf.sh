#!/bin/sh
# npm run cdktf|diff|deploy|destroy: the cdktf CLI without telemetry or its version check (no
# network call), and without the plan files `cdktf diff` leaves in the output folder: they hold
# every value of the plan, secrets included, in plain text. They are removed on every way out:
# cdktf's own exit (any status), and SIGINT, SIGTERM or SIGHUP to this script (Ctrl-C, `kill`, a
# cancelled CI job, a closed terminal). Only SIGKILL leaves them (nothing runs after it).
export CHECKPOINT_DISABLE=1 DISABLE_VERSION_CHECK=1 CDKTF_DISABLE_PLUGIN_CACHE_ENV=1
# The app learns the command (stacks/retired-stacks.ts: `deploy` leaves a retired cluster's stacks out).
export HCP_AZURE_CDKTF_COMMAND="${1:-}"
# The output folder is cdktf's `--output`/`-o` (default cdktf.out): cdktf ignores CDKTF_OUTDIR and
# sets it for the app from `--output`. So, when CDKTF_OUTDIR is set and no `--output` is given, it
# becomes the `--output` of the commands that take one, and the plans are removed from the folder
# cdktf writes: the value of `--output X`, `--output=X`, `-o X` or `-o=X` (cdktf reads these
# forms, options after `--` are not its own), else the CDKTF_OUTDIR passed on, else cdktf.out.
out=
given=
expect_value=
for arg in "$@"; do
  if [ -n "$expect_value" ]; then out=$arg given=1 expect_value=; continue; fi
  case $arg in
    --) break ;;
    --output | -o) expect_value=1 ;;
    --output=*) out=${arg#--output=} given=1 ;;
    -o=*) out=${arg#-o=} given=1 ;;
  esac
done
if [ -z "$given" ]; then
  out=cdktf.out
  case ${1:-} in
    synth | synthesize | diff | plan | deploy | apply | destroy | list | output | outputs | watch)
      if [ -n "${CDKTF_OUTDIR:-}" ]; then
        out=$CDKTF_OUTDIR
        command=$1
        shift
        set -- "$command" --output "$out" "$@"
      fi
      ;;
  esac
fi
child=

remove_plans() {
  if [ -n "$out" ] && [ -d "$out/stacks" ]; then
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
