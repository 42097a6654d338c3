# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the device scripts (tools/*_device_check.sh, gpu_small_check.sh):
# the stages named on the command line, each step's output in its own log
# under $out, and one summary line per step, printed last by the script so
# that the device tool's reply (the output's tail) carries them.
# The script sets `stages` and `out` first, and may set `note_width`.
summary=()
# Whether STAGE is among the comma-separated $stages.
has() { [[ ",$stages," == *",$1,"* ]]; }
# A summary line: a name, then what came of it.
note() { summary+=("$(printf "%-${note_width:-40}s %s" "$1" "$2")"); }
# step NAME LOG COMMAND...: runs COMMAND into $out/LOG, notes its status and time.
step() {
  local name=$1 log=$2 start=$SECONDS
  shift 2
  "$@" >"$out/$log" 2>&1
  local rc=$?
  note "$name" "rc=$rc $((SECONDS - start)) s ($log)"
  return $rc
}
