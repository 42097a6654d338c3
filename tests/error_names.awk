# SPDX-License-Identifier: BSD-3-Clause
# error_names.awk: the error lines of `cute-layout eval` name what failed.
# Reads EXPR<TAB>...<TAB>OUTPUT lines (the last field is the tool's answer);
# each answer "error: MESSAGE" must start with the column of a parse error
# or with the name of a function EXPR calls (Swizzle for a Sw<b,m,s> literal,
# make_composed_layout for `A o B`), and no message may show a name of the
# library's C API (cl_..., CL_...), which a user of the tool never sees.
# Prints the offending lines and exits 1 when there are any.
BEGIN { FS = "\t" }
function calls(expr, name) {
  if (name == "Swizzle" && expr ~ /Sw *</)
    return 1
  if (name == "make_composed_layout" && expr ~ /(^|[^A-Za-z_0-9])o([^A-Za-z_0-9]|$)/)
    return 1
  return expr ~ ("(^|[^A-Za-z_0-9])" name " *\\(")
}
{
  expr = $1
  got = $NF
  if (substr(got, 1, 7) != "error: ")
    next
  msg = substr(got, 8)
  why = ""
  if (msg ~ /(^|[^A-Za-z_0-9])(cl|CL)_[A-Za-z]/)
    why = "shows a name of the C API"
  else if (msg !~ /^column [0-9]+: /) {
    match(msg, /^[A-Za-z_][A-Za-z_0-9]*/)
    name = substr(msg, 1, RLENGTH)
    if (RLENGTH <= 0 || !calls(expr, name))
      why = "does not start with the function that failed"
  }
  if (why != "") {
    bad++
    if (bad <= 20)
      printf "  %s\n    %s: %s\n", expr, why, got
  }
}
END {
  if (bad) {
    printf "%d error line(s) do not name what failed\n", bad
    exit 1
  }
}
