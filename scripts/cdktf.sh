#!/bin/sh
# npm run cdktf|diff|deploy|destroy: the cdktf CLI without telemetry or its version check (no
# network call), and without the plan files `cdktf diff` leaves in the output folder: they hold
# every value of the plan, secrets included, in plain text.
export CHECKPOINT_DISABLE=1 DISABLE_VERSION_CHECK=1 CDKTF_DISABLE_PLUGIN_CACHE_ENV=1
status=0
cdktf "$@" || status=$?
out=${CDKTF_OUTDIR:-cdktf.out}
if [ -d "$out/stacks" ]; then
  find "$out/stacks" -mindepth 2 -maxdepth 2 -type f -name plan -exec rm -f {} +
fi
exit $status
