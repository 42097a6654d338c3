#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""ncu_table.py OUT_DIR: tools/banks/run.sh's ncu.csv and order.tsv as the
measurement table tests/banks/ncu_h100.tsv keeps (stdout): one line a pair,
name then the wavefronts and bank conflicts ncu counted for its kernel."""
import csv
import sys
from pathlib import Path

COLUMNS = [
    ("ld", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("st", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("ld_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
    ("st_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
    ("ldgsts", "ldgsts"),
]


def main(out: Path) -> None:
    names = {}
    for line in (out / "order.tsv").read_text().splitlines():
        index, name = line.split("\t")
        names[int(index)] = name
    lines = (out / "ncu.csv").read_text().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    rows = csv.DictReader(l for l in lines[start:] if l.startswith('"'))
    values = {}
    for row in rows:
        values.setdefault(int(row["ID"]), {})[row["Metric Name"]] = row["Metric Value"].replace(",", "")
    # cp.async's writes have no op_ counter of their own: they are the shared
    # wavefronts that no op_ counter claims.
    total = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
    for got in values.values():
        if total in got:
            ops = [int(v) for k, v in got.items() if k.startswith(total[:-4] + "_op_")]
            got["ldgsts"] = str(int(got[total]) - sum(ops))
    device = (out / "device.txt").read_text().splitlines()
    print("# Wavefronts and bank conflicts Nsight Compute counted for each pair of pairs.tsv")
    print("# (tools/banks/run.sh, tools/banks/ncu_table.py), on: " + " | ".join(device))
    print("# name\t" + "\t".join(c for c, _ in COLUMNS))
    for index in sorted(names):
        got = values.get(index, {})
        print(names[index] + "\t" + "\t".join(got.get(m, "?") for _, m in COLUMNS))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
