#!/usr/bin/env python3
"""Shared-memory bank conflicts of the 3D smoother kernel (patch_kernel, Fused, k = 2..4 with
contractions by lines), simulated; and a search for tensor layouts without them.

The kernel runs eight stages per patch: the closure gather, the residual's x and y
contractions by lines and its z contraction as a plane walk (which also applies the local
solve's S^T along z to the thread's column), then the local solve's x^T lines, y lines (S^T,
1 / lambda, S in registers), x lines and the final z plane walk (tuning.hpp fused_solve);
with --six-stage-solve the ten stages of the local solve with six contractions through shared
memory (x, y by lines, z as a plane walk, twice). Each stage reads one tensor and writes the
next (a | c and u | v are pairs of tensors). A tensor's placement (src/cuda/patch_layout.hpp) is its
element strides (sx, sy, sz) and the distance ps between the tensors of consecutive patches
of a block; a stage's thread map puts its two free coordinates on the threads of a patch,
one of them fastest (Swap). For every load and store instruction of a stage this replays
the shared-memory words of the block's warps and counts wavefronts as the hardware does:
4-byte words per warp, the largest number of distinct words on one of the 32 banks; 8-byte
words per half warp, on 16 bank pairs. (It reproduces the per-instruction ratios Nsight
Compute measured for the compact layout at k = 3: 2.00 for the line stages, 1.00 for the
plane stages.)

  bench/bank_conflicts.py --degree 3 --precision float            # score the compact default and
                                                                   # the shipped layout (patch_layout.hpp)
  bench/bank_conflicts.py --degree 3 --precision both --search     # search (float + double)
  bench/bank_conflicts.py --degree 3 --precision both --six-stage-solve   # the same for -DVPATCH_FUSED_SOLVE=0

The search gives every tensor the strides and patch stride (mod 32: the padding of its
rows, planes and patch records) and every stage the thread map that minimize the block's
wavefronts, with the stages alternating between two buffers (no in-place stage) whose total
must keep the kernel's blocks per SM (SHAPES) within the 228 KiB of shared memory per SM.
It prints the layout as an entry of patch_layout.hpp's searched_layouts[].
"""
import argparse
import functools
import itertools
import os
import re

# Launch shapes of the 3D smoother, as src/cuda/tuning.hpp sets them: threads per patch,
# patches per block, packed thread numbering, and blocks per SM to keep (the min-blocks hint,
# or the thread limit where there is none).
SHAPES = {(2, 'float'): (15, 8, True, 16), (2, 'double'): (15, 8, True, 12),
          (3, 'float'): (25, 5, False, 12), (3, 'double'): (25, 5, False, 6),
          (4, 'float'): (63, 2, True, 12), (4, 'double'): (63, 1, False, 10)}
TENSORS = ['X', 'AC', 'UV', 'R', 'S0', 'S1', 'S2', 'S3', 'S4']


def shipped_layouts():
    """The searched_layouts[] table of src/cuda/patch_layout.hpp: {(degree, precision,
    registers): ({tensor: (sx, sy, sz, ps)}, swaps)}, precision 0 float, 1 double, -1 both,
    registers 1 for the solve with two contractions in registers (buffers and pair offsets
    shift a tensor's addresses uniformly: no effect on the banks)."""
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'cuda', 'patch_layout.hpp')).read()
    block = src[src.index('searched_layouts[] = {') + len('searched_layouts[] = {'):]
    block = re.sub(r'//[^\n]*', '', block[:block.index('};')])
    entries, depth, start = [], 0, 0
    for i, ch in enumerate(block):  # the top-level {...} entries
        if ch == '{':
            depth += 1
            if depth == 1:
                start = i
        elif ch == '}':
            depth -= 1
            if depth == 0:
                entries.append(block[start:i + 1])
    size = 4 + 6 * len(TENSORS) + 10 + 2
    out = {}
    for e in entries:
        v = [int(x) for x in re.findall(r'-?\d+', e)]
        t = {name: tuple(v[4 + 6 * i:4 + 6 * i + 4]) for i, name in enumerate(TENSORS)}
        out[(v[0], v[1], v[size] if len(v) > size else 0)] = (t, tuple(v[4 + 6 * len(TENSORS):4 + 6 * len(TENSORS) + 10]))
    return out
STAGES = ['gather', 'residual x', 'residual y', 'residual z', 'solve x', 'solve y', 'solve z', 'solve x', 'solve y', 'solve z']


class Kernel:
    def __init__(self, k, precision, fused_solve=True):
        self.k, self.n, self.m = k, 2 * k + 1, 2 * k - 1
        self.T, self.P, self.packed, self.blocks = SHAPES[(k, precision)]
        self.word = 8 if precision == 'double' else 4
        self.lanes = 16 if self.word == 8 else 32  # lanes per wavefront group, banks (pairs)
        n, m = self.n, self.m
        self.ext = {'X': (n, n, n), 'AC': (m, n, n), 'UV': (m, m, n), 'R': (m, m, m)}
        for s in range(5):
            self.ext['S%d' % s] = (m, m, m)
        self.pair = {'AC': 2, 'UV': 2}
        # stage: kind (gather, plane or lines along dir), free coordinates, their extents, input
        # tensor and loads per thread and round, output tensor and stores per thread and round
        self.stages = [('gather', (0, 1), (n, n), None, 0, 'X', n),
                       ('lines', (1, 2), (n, n), 'X', n, 'AC', 2 * m),
                       ('lines', (0, 2), (m, n), 'AC', 2 * n, 'UV', 2 * m),
                       ('plane', (0, 1), (m, m), 'UV', 2 * n, 'R', m),
                       ('lines', (1, 2), (m, m), 'R', m, 'S0', m),
                       ('lines', (0, 2), (m, m), 'S0', m, 'S1', m),
                       ('plane', (0, 1), (m, m), 'S1', m, 'S2', m),
                       ('lines', (1, 2), (m, m), 'S2', m, 'S3', m),
                       ('lines', (0, 2), (m, m), 'S3', m, 'S4', m),
                       ('plane', (0, 1), (m, m), 'S4', m, None, 0)]
        if fused_solve:
            # tuning.hpp fused_solve: S^T_z in the residual's z stage, the y line's S^T, 1 / lambda
            # and S in registers; the stages keep their swap indices (6 and 8 unused)
            self.stages[5] = ('lines', (0, 2), (m, m), 'S0', m, 'S1', m)
            self.stages[6] = ('none', None, None, None, 0, None, 0)
            self.stages[7] = ('lines', (1, 2), (m, m), 'S1', m, 'S2', m)
            self.stages[8] = ('none', None, None, None, 0, None, 0)
            self.stages[9] = ('plane', (0, 1), (m, m), 'S2', m, None, 0)
        self.tensors = TENSORS[:7] if fused_solve else TENSORS
        mats = 2 * m * n + 2 * m * m + m
        per_sm = 228 * 1024 // self.blocks - 1024 - 8 * self.P - 8  # bytes a block may use
        self.budget = per_sm // self.word - mats  # elements for the tensors

    def thread_maps(self, kind, U, W, swap):
        """Per round, per thread of the block: (patch, u, w) or None."""
        T, P = self.T, self.P
        L = U * W
        if kind == 'gather' or not self.packed:
            rounds = (L + T - 1) // T
            groups = lambda tau, r: (tau // T, tau % T + r * T)
        else:
            rounds = (P * L + P * T - 1) // (P * T)
            groups = lambda tau, r: divmod(tau + r * P * T, L)
        maps = []
        for r in range(rounds):
            row = []
            for tau in range(T * P):
                g, l = groups(tau, r)
                if g >= P or l >= L:
                    row.append(None)
                else:
                    row.append((g, l // W, l % W) if swap else (g, l % U, l // U))
            maps.append(row)
        return maps

    @functools.lru_cache(maxsize=None)
    def wavefronts(self, kind, U, W, swap, su, sw, ps):
        """Wavefronts of one load or store of a stage: su, sw, ps mod 32 (banks)."""
        B, total = self.lanes, 0
        for row in self.thread_maps(kind, U, W, swap):
            for w0 in range(0, len(row), B):
                banks = {}
                for e in row[w0:w0 + B]:
                    if e is not None:
                        b = (e[0] * ps + e[1] * su + e[2] * sw) % B
                        banks[b] = banks.get(b, 0) + 1
                total += max(banks.values(), default=0)
        return total

    def access(self, stage, st, ps, swap, role):
        kind, axes, UW, tin, nin, tout, nout = self.stages[stage]
        count = nin if role == 'read' else nout
        return count * self.wavefronts(kind, UW[0], UW[1], swap, st[axes[0]] % 32, st[axes[1]] % 32, ps % 32)

    def ideal(self):
        total = 0
        for s, (kind, axes, UW, tin, nin, tout, nout) in enumerate(self.stages):
            if kind == 'none':
                continue
            for row in self.thread_maps(kind, UW[0], UW[1], False):
                for w0 in range(0, len(row), 32):
                    active = sum(e is not None for e in row[w0:w0 + 32])
                    if active:
                        total += (nin + nout) * ((active * self.word + 127) // 128)
        return total

    def tensor_size(self, t, st):
        e = self.ext[t]
        return (sum(st[d] * (e[d] - 1) for d in range(3)) + 1) * self.pair.get(t, 1)

    def writer_reader(self, t):
        w = next(i for i, s in enumerate(self.stages) if s[5] == t)
        r = next(i for i, s in enumerate(self.stages) if s[3] == t)
        return w, r

    def score(self, layout, swaps):
        """Wavefronts per block of every stage's loads and stores, and per tensor."""
        per = {}
        for t in self.tensors:
            sx, sy, sz, ps = layout[t]
            w, r = self.writer_reader(t)
            per[t] = (self.access(w, (sx, sy, sz), ps, swaps[w], 'write'), self.access(r, (sx, sy, sz), ps, swaps[r], 'read'))
        return per

    def default_layout(self):
        n, m = self.n, self.m
        size = n ** 3 + 2 * m * n * n
        ps = size
        if self.k == 3:  # pad_patch_stride: congruent to T mod 32
            ps = size + ((self.T - size) % 32 + 32) % 32
        lay = {'X': (1, n, n * n, ps), 'AC': (1, m, m * n, ps), 'UV': (1, m, m * m, ps)}
        for t in ['R', 'S0', 'S1', 'S2', 'S3', 'S4']:
            lay[t] = (1, m, m * m, ps)
        return lay, (0,) * 10

    def candidates(self, t):
        """Layouts of tensor t: the fastest dimension stride 1, the others padded by 0..31."""
        e = self.ext[t]
        for order in itertools.permutations(range(3)):
            f, mid, slow = order
            for p1 in range(32):
                for p2 in range(32):
                    st = [0, 0, 0]
                    st[f], st[mid] = 1, e[f] + p1
                    st[slow] = st[mid] * e[mid] + p2
                    rec = self.tensor_size(t, st)
                    for p3 in range(32 if self.P > 1 else 1):
                        yield tuple(st), rec + p3, rec


def pareto(items):
    items.sort()
    out, best = [], None
    for w, size, info in items:
        if best is None or size < best:
            out.append((w, size, info))
            best = size
    return out


def search(kernels):
    """Minimize the summed wavefronts of `kernels` (one per precision) over layouts and swaps."""
    P = kernels[0].P
    tables = {}
    for t in kernels[0].tensors:
        w, r = kernels[0].writer_reader(t)
        cands = list(kernels[0].candidates(t))
        for sw in (0, 1):
            for sr in (0, 1):
                if (w == 0 and sw) or (r == 9 and sr):
                    continue  # gather: x fastest (global coalescing); last stage: no shared output
                items = []
                for st, ps, rec in cands:
                    wf = sum(kk.access(w, st, ps, sw, 'write') + kk.access(r, st, ps, sr, 'read') for kk in kernels)
                    items.append((wf, (P - 1) * ps + rec, (st, ps)))
                tables[(t, sw, sr)] = pareto(items)
    budget = min(kk.budget for kk in kernels)
    region = {t: 'AB'[i % 2] for i, t in enumerate(kernels[0].tensors)}
    best = None
    for swaps in itertools.product((0, 1), repeat=8):
        sw = (0,) + swaps + (0,)
        lists = {t: tables[(t, sw[kernels[0].writer_reader(t)[0]], sw[kernels[0].writer_reader(t)[1]])] for t in kernels[0].tensors}
        for capA in sorted({s for t in kernels[0].tensors if region[t] == 'A' for _, s, _ in lists[t]}):
            capB = budget - capA
            if capB <= 0:
                break
            choice = {}
            for t in kernels[0].tensors:
                cap = capA if region[t] == 'A' else capB
                choice[t] = next((c for c in lists[t] if c[1] <= cap), None)
            if any(c is None for c in choice.values()):
                continue
            total = sum(c[0] for c in choice.values())
            if best is None or total < best[0]:
                best = (total, sw, choice)
    return best, region


def show(kk, name, layout, swaps):
    per = kk.score(layout, swaps)
    total = sum(a + b for a, b in per.values())
    print(f'  {name}: {total} wavefronts per block (ideal {kk.ideal()}, {total / kk.ideal():.2f}x)')
    for t in kk.tensors:
        print(f'    {t:3s} strides {layout[t][:3]} patch stride {layout[t][3]}: written {per[t][0]}, read {per[t][1]}')
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--degree', type=int, default=3, choices=(2, 3, 4))
    ap.add_argument('--precision', default='float', choices=('float', 'double', 'both'))
    ap.add_argument('--search', action='store_true')
    ap.add_argument('--six-stage-solve', action='store_true', help='the local solve with all six contractions through shared memory (-DVPATCH_FUSED_SOLVE=0)')
    a = ap.parse_args()
    precs = ['float', 'double'] if a.precision == 'both' else [a.precision]
    kernels = [Kernel(a.degree, p, not a.six_stage_solve) for p in precs]
    for kk, p in zip(kernels, precs):
        print(f'3D k = {a.degree}, {p}: {kk.T} threads x {kk.P} patches{" (packed)" if kk.packed else ""}, '
              f'tensor budget {kk.budget} elements ({kk.blocks} blocks per SM)')
        show(kk, 'compact default', *kk.default_layout())
        shipped = shipped_layouts()
        regs = 0 if a.six_stage_solve else 1
        key = next((key for key in ((a.degree, ('float', 'double').index(p), regs), (a.degree, -1, regs)) if key in shipped), None)
        if key:
            show(kk, 'shipped (src/cuda/patch_layout.hpp)', *shipped[key])
    if not a.search:
        return
    (total, swaps, choice), region = search(kernels)
    tens = kernels[0].tensors
    layout = {t: choice[t][2][0] + (choice[t][2][1],) for t in tens}
    sizes = {r: max(choice[t][1] for t in tens if region[t] == r) for r in 'AB'}
    print(f'search: {total} wavefronts per block summed over {", ".join(precs)}; buffers A {sizes["A"]} + B {sizes["B"]} elements')
    for kk, p in zip(kernels, precs):
        show(kk, f'found ({p})', layout, swaps)
    prec = {'float': 0, 'double': 1, 'both': -1}[a.precision]
    rows = []
    for t in TENSORS:  # (the tensors a layout does not use repeat the last one's entry)
        u = t if t in layout else tens[-1]
        st, ps = layout[u][:3], layout[u][3]
        pair = kernels[0].tensor_size(t, st) // 2 if t in kernels[0].pair else 0
        rows.append(f'{{{st[0]}, {st[1]}, {st[2]}, {ps}, {"AB".index(region[u])}, {pair}}}')
    print('patch_layout.hpp, searched_layouts[]:')
    print(f'  {{{a.degree}, {prec}, {kernels[0].T}, {kernels[0].P}, {{{", ".join(rows)}}}, {{{", ".join(str(s) for s in swaps)}}}, {sizes["A"]}, {sizes["B"]}{"" if a.six_stage_solve else ", 1"}}},')


if __name__ == '__main__':
    main()
