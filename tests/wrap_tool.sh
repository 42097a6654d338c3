# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the tool's test scripts.  When CUTE_LAYOUT_TOOL_WRAPPER is set
# (e.g. to a valgrind command line, as .ci/run does), every run of the tool in
# the script goes through it, so a memory error or leak in the tool changes
# its exit status and fails the test.
#
# usage: exe=$(wrapped_tool EXE WORK_DIR)
wrapped_tool() {
  if [ -z "${CUTE_LAYOUT_TOOL_WRAPPER:-}" ]; then
    printf '%s\n' "$1"
    return
  fi
  printf '#!/bin/sh\nexec %s %q "$@"\n' "$CUTE_LAYOUT_TOOL_WRAPPER" "$1" > "$2/wrapped-cute-layout"
  chmod +x "$2/wrapped-cute-layout"
  printf '%s\n' "$2/wrapped-cute-layout"
}
