#!/usr/bin/env python3
"""Shared-memory bank conflicts of the 3D cell operator (laplace_kernel with compiled-in
matrices and x, y contractions by lines: float, k >= 4), simulated; and a search for layouts
without them (src/cuda/cell_layout.hpp).

A block holds C cells of (k+1)^2 threads. Four stages touch shared memory: the gather of x
(a thread per (i, j) walks l), the x lines (a thread per (j, l): loads x, stores B0 and B1),
the y lines (a thread per (i, l): loads and stores B0, B1 in place) and the z contraction
(a thread per (i, j) walks l: loads B0, B1). For every load and store instruction this
replays the warps' 4-byte words and counts wavefronts as the hardware does for distinct
words: the largest number of lanes on one of the 32 banks. Nsight Compute, 3D k = 7 with
the compact layout (70304 blocks): 55.9M store wavefronts against 54.0M from this model;
27.7M load wavefronts against 40.5M (ptxas merges some of a thread's contiguous line loads
into vector loads, which this model does not).

  bench/bank_conflicts_operator.py                  # compact and shipped layouts, k = 4..8
  bench/bank_conflicts_operator.py --search 7 8     # search, keeping the blocks per SM
  bench/bank_conflicts_operator.py --double [--search 4 5 6 7 8]   # the same for 8-byte elements

8-byte elements (double): a warp's access is served per half-warp (16 lanes x 8 bytes = one
128-byte wavefront); within a half, lanes whose elements fall on the same bank pair (element
index mod 16) at different addresses take one wavefront each.

A layout: strides (1, xy, xz) of x and (1, by, bz) of the pair B0 | B1, the cell stride, and
per stage (x lines, y lines, z contraction) which free coordinate runs fastest (swap). The
search keeps the blocks per SM that the registers allow (REG_BLOCKS: 32 registers per
thread) within 228 KiB of shared memory (1 KiB reserved per block) and prints an entry of
cell_layout.hpp's searched_cell_layouts[].
"""
import argparse
import functools
import itertools
import os
import re

REG_BLOCKS = {4: 12, 5: 12, 6: 12, 7: 16, 8: 10}  # blocks per SM the registers allow (150/144/147/128/162 threads)
# double (ptxas, CUDA 13.0, with the searched layouts: 32/46/48/56/61 registers, allocated by 8 per thread and by
# warps: 5120/7680/7680/7168/12288 per block; the k = 8 layout was searched with 6 blocks, 56 registers before)
REG_BLOCKS_DOUBLE = {4: 12, 5: 8, 6: 8, 7: 9, 8: 5}
WIDE = False  # 8-byte elements (--double)


def shape(k):
    nb = k + 1
    return nb, -(-128 // (nb * nb)), nb * nb  # points per direction, cells per block, threads per cell


@functools.lru_cache(maxsize=None)
def instruction(k, stage, sy, sz, ps, swap, step, wide=False):
    """Wavefronts of one load or store of a stage over the block; strides mod 32 suffice."""
    nb, C, T = shape(k)
    lanes, nbanks = (16, 16) if wide else (32, 32)  # per wavefront: half-warps of bank pairs (8-byte elements)
    total = 0
    for w0 in range(0, C * T, lanes):
        banks = {}
        for tid in range(w0, min(w0 + lanes, C * T)):
            g, t = divmod(tid, T)
            a, b = (t // nb, t % nb) if swap else (t % nb, t // nb)
            i, j, l = {'plane': (a, b, step), 'xlines': (step, a, b), 'ylines': (a, step, b)}[stage]
            bank = (g * ps + i + sy * j + sz * l) % nbanks
            banks[bank] = banks.get(bank, 0) + 1
        total += max(banks.values())
    return total


def stage(k, kind, sy, sz, ps, swap):
    return sum(instruction(k, kind, sy % 32, sz % 32, ps % 32, swap, s, WIDE) for s in range(k + 1))


def score(k, L):
    """Wavefronts per block: {stage: count} for layout L = (xy, xz, by, bz, cell, sx, sy, sz)."""
    xy, xz, by, bz, ps, swx, swy, swz = L
    return {'gather': stage(k, 'plane', xy, xz, ps, 0),
            'x lines': stage(k, 'xlines', xy, xz, ps, swx) + 2 * stage(k, 'xlines', by, bz, ps, swx),
            'y lines': 4 * stage(k, 'ylines', by, bz, ps, swy),
            'z contraction': 2 * stage(k, 'plane', by, bz, ps, swz)}


def size(k, sy, sz):
    return k * (sz + sy + 1) + 1


def compact(k):
    nb, C, T = shape(k)
    rec = 3 * nb ** 3
    if C > 1:  # tuning.hpp pad_cell_stride: congruent to the threads per cell mod 32
        rec += ((T - rec) % 32 + 32) % 32
    return (nb, nb * nb, nb, nb * nb, rec, 0, 0, 0)


def shipped():
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'cuda', 'cell_layout.hpp')).read()
    block = src[src.index('searched_cell_layouts[] = {'):]
    block = block[:block.index('};')]
    out = {}
    for m in re.finditer(r'\{(\d+), (\d+), (\d+), \{(\d+), (\d+), (\d+), (\d+), (\d+), (\w+), (\w+), (\w+)\}\}', block):
        v = m.groups()
        if int(v[2]) == (8 if WIDE else 4):
            out[int(v[0])] = tuple(int(x) for x in v[3:8]) + tuple(int(x == 'true') for x in v[8:])
    return out


def blocks_per_sm(k, cell):
    nb, C, T = shape(k)
    return min((REG_BLOCKS_DOUBLE if WIDE else REG_BLOCKS)[k], 228 * 1024 // ((8 if WIDE else 4) * C * cell + 1024))


def search(k):
    nb, C, T = shape(k)
    keep = blocks_per_sm(k, compact(k)[4])
    strides = [(nb + py, (nb + py) * nb + pz) for py in range(8) for pz in range(32)]  # (mod 16 suffices for 8-byte elements)
    best = None
    for pr in range(32 if C > 1 else 1):  # the cell stride mod 32
        for swx, swy, swz in itertools.product((0, 1), repeat=3):
            bx = min((stage(k, 'plane', *s, pr, 0) + stage(k, 'xlines', *s, pr, swx), size(k, *s), s) for s in strides)
            bb = min((2 * stage(k, 'xlines', *s, pr, swx) + 4 * stage(k, 'ylines', *s, pr, swy) + 2 * stage(k, 'plane', *s, pr, swz),
                      size(k, *s), s) for s in strides)
            need = bx[1] + 2 * bb[1]
            cell = need + (pr - need) % 32 if C > 1 else need
            if blocks_per_sm(k, cell) < keep:
                continue
            cand = (bx[0] + bb[0], cell, bx[2] + bb[2] + (cell, swx, swy, swz))
            if best is None or cand[:2] < best[:2]:
                best = cand
    return best


def ideal(k):
    nb, C, T = shape(k)
    warps = -(-C * T // 32)
    return warps * (2 if WIDE else 1) * (k + 1) * (1 + 1 + 2 + 4 + 2)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--search', type=int, nargs='*', help='degrees to search (default: score k = 4..8)')
    ap.add_argument('--double', action='store_true', help='8-byte elements')
    args = ap.parse_args()
    global WIDE
    WIDE = args.double
    if args.search:
        for k in args.search:
            w, cell, L = search(k)
            c = sum(score(k, compact(k)).values())
            print(f'k = {k}: {c} -> {w} wavefronts per block (ideal {ideal(k)}), {blocks_per_sm(k, cell)} blocks per SM')
            print(f'  {{{k}, {shape(k)[1]}, {8 if WIDE else 4}, {{{L[0]}, {L[1]}, {L[2]}, {L[3]}, {L[4]}, '
                  + ', '.join('true' if s else 'false' for s in L[5:]) + '}},')
        return
    ship = shipped()
    for k in range(4, 9):
        for name, L in (('compact', compact(k)), ('shipped', ship.get(k))):
            if L is None:
                continue
            s = score(k, L)
            print(f'k = {k} {name:8s}: {sum(s.values()):5d} wavefronts per block (ideal {ideal(k)}), {blocks_per_sm(k, L[4])} blocks per SM; '
                  + ', '.join(f'{n} {v}' for n, v in s.items()))


if __name__ == '__main__':
    main()
