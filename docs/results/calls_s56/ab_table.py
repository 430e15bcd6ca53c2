#!/usr/bin/env python3
"""The A/B table of calls A and C: the best GDoF/s of each library over the rounds in
OUT/ab_<lib>_<round>.csv (bench_kernels --csv), per (k, precision, operation), and the change
of the last library named against each earlier one, with the last one's roofline share.
Usage: ab_table.py OUT LIB [LIB ...]   (e.g. ab_table.py $OUT six new)"""
import csv
import glob
import sys

out, libs = sys.argv[1], sys.argv[2:]
best = {}
for f in glob.glob(out + '/ab_*.csv'):
    lib = f.split('/')[-1].split('_')[1]
    for r in csv.DictReader(open(f)):
        key = (int(r['k']), r['precision'], r['operation'])
        v = float(r['gdofs_per_s'])
        if v > best.setdefault(key, {}).get(lib, (0, ''))[0]:
            best[key][lib] = (v, r['roofline_pct'])
last = libs[-1]
print(f'k precision operation: GDoF/s of {" / ".join(libs)} (change of {last} against each earlier), roofline % of {last}')
for key in sorted(best):
    b = best[key]
    if all(lib in b for lib in libs):
        rates = ' / '.join(f'{b[lib][0]:7.3f}' for lib in libs)
        changes = ', '.join(f'{100 * (b[last][0] / b[lib][0] - 1):+5.1f}%' for lib in libs[:-1])
        print(f'{key[0]} {key[1]:6s} {key[2]:22s} {rates} ({changes})  {b[last][1]}%')
