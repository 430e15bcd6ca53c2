#!/usr/bin/env python3
"""Summaries of Nsight Compute source pages (bench/ncu_stages.sh): for each kernel, the share
of executed warp instructions and of stall samples per stage (the code up to and including a
BAR instruction), with the leading opcode classes and stall reasons, then the opcode mix.
Usage: bench/ncu_stages.py FILE.csv [...]"""
import collections
import csv
import re
import sys


def load(path):
    rows = list(csv.reader(open(path)))
    for i, r in enumerate(rows):
        if len(r) > 3 and r[0] == "Address":
            hdr = r
            return hdr, [x for x in rows[i + 1:] if len(x) >= len(hdr)]
    raise SystemExit(f"{path}: no source table")


def opcode(src):
    m = re.match(r"(@!?U?P\w+\s+)?([A-Z0-9_]+)", src)
    return m.group(2) if m else "?"


def klass(op):
    if op in ("FFMA", "DFMA"):
        return "fma"
    if op in ("FADD", "FMUL", "DADD", "DMUL", "MUFU", "HFMA2"):
        return "fp"
    if op in ("LDS", "STS"):
        return op.lower()
    if op in ("LDG", "LDGSTS", "STG", "RED", "REDG", "ATOMG"):
        return "global"
    if op.startswith("U") or op in ("R2UR", "S2UR"):
        return "uniform"
    return "int/ctl"


def summary(path):
    hdr, data = load(path)
    ix = {h: j for j, h in enumerate(hdr)}
    stalls = [h for h in hdr if h.startswith("stall_") and "Not Issued" not in h]
    num = lambda r, h: float(r[ix[h]] or 0)
    I = sum(num(r, "Instructions Executed") for r in data)
    S = sum(num(r, "Warp Stall Sampling (All Samples)") for r in data)
    seg, stages, ops = 0, collections.defaultdict(lambda: [0.0, 0.0, collections.Counter(), collections.Counter()]), collections.Counter()
    for r in data:
        src, n = r[ix["Source"]].strip(), num(r, "Instructions Executed")
        st = stages[seg]
        st[0] += n
        st[1] += num(r, "Warp Stall Sampling (All Samples)")
        st[2][klass(opcode(src))] += n
        for h in stalls:
            st[3][h[6:]] += num(r, h)
        ops[opcode(src)] += n
        if src.startswith("BAR"):
            seg += 1
    print(f"{path}: {I:.4g} warp instructions, {S:.0f} stall samples")
    for s, (n, smp, k, reasons) in sorted(stages.items()):
        if n / I < 0.01 and smp / S < 0.01:
            continue
        print(f"  stage {s:2d}: instructions {100 * n / I:5.1f}%  samples {100 * smp / S:5.1f}%  | "
              + " ".join(f"{c} {100 * v / I:.1f}" for c, v in k.most_common(4)) + "  | "
              + " ".join(f"{c} {100 * v / S:.1f}" for c, v in reasons.most_common(3)))
    print("  opcodes: " + ", ".join(f"{o} {100 * v / I:.1f}%" for o, v in ops.most_common(12)))


for p in sys.argv[1:]:
    summary(p)
