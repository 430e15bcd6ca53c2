#!/usr/bin/env python3
"""Shared-memory bank conflicts of the 3D k = 3 float smoother (Fused), simulated.

For every stage of patch_kernel<3, 3, float, Fused> (src/cuda/patch_smoother_impl.cuh:
closure gather, the residual contractions in x and y by lines and in z as a plane walk,
the six fast-diagonalization contractions) it replays the shared-memory word addresses
that each thread of a block touches per load/store instruction, groups them into warps of
32 lanes and counts wavefronts as the hardware does for 4-byte accesses: per instruction,
the largest number of distinct words that fall on one of the 32 banks. Printed per stage:
wavefronts / ideal (1.00 = conflict-free) and the total over one patch's instructions.

It reproduces the per-instruction ratios that Nsight Compute measured on the H200 for the
shipped layout (tenth session, bench/NOTES.md): 2.00 for the line contractions (1.75 for
the residual's y-line stores), 1.00 for the plane stages. (ncu also reports 2 wavefronts per
closure cp.async, which this model of plain stores does not.) Use it to try layouts before
spending GPU time:  bench/bank_conflicts.py [--threads T] [--patches P] [--stride-factor F]
[--pad-z W]  (T threads per patch, P patches per block, patch stride congruent to F T mod 32,
z strides of the (m, n, n) and (m, m, n) tensors rounded up to W mod 32; defaults: the
shipped 25, 5, 1, none).
"""
import argparse
import math

k, n, m = 3, 7, 5


def bank_stride(size, lanes):
    return size + ((lanes - size) % 32 + 32) % 32


def pad(stride, w):
    return stride if w is None else stride + ((w - stride) % 32 + 32) % 32


def simulate(T, P, factor, padz):
    zs_mnn = pad(m * n, padz)  # z stride of the (m, n, n) tensors: M0 x, K0 x
    zs_mmn = pad(m * m, padz)  # z stride of the (m, m, n) tensors: u, v
    size = n ** 3 + 2 * n * zs_mnn
    PS = bank_stride(size, factor * T)
    threads = T * P

    def lines(L, in0, in_step, NE, out0, out_step, NR):
        rounds = (L + T - 1) // T
        def access(start, step, count):
            def f(g, t):
                out = []
                for r in range(rounds):
                    l = t + r * T
                    out += [g * PS + start(l) + i * step if l < L else None for i in range(count)]
                return out
            return f
        return access(in0, in_step, NE), access(out0, out_step, NR)

    def plane(zstride, count, points=m * m, width=m):
        def f(g, t):
            if t >= points:
                return [None] * count
            return [g * PS + (t % width) + width * (t // width) + zstride * i for i in range(count)]
        return f

    def gather(g, t):
        out = []
        for r in range((n * n + T - 1) // T):
            p = t + r * T
            out += [g * PS + p + n * n * z if p < n * n else None for z in range(n)]
        return out

    st = {'closure gather (stores)': gather}
    st['residual x: read'], st['residual x: write'] = lines(n * n, lambda l: n * l, 1, n, lambda l: m * l, 1, m)
    st['residual y: read'], st['residual y: write'] = lines(m * n, lambda l: l % m + zs_mnn * (l // m), m, n,
                                                            lambda l: l % m + zs_mmn * (l // m), m, m)
    st['residual z: read'] = plane(zs_mmn, n)
    st['residual z: write'] = plane(m * m, m)
    st['solve x: read'], st['solve x: write'] = lines(m * m, lambda l: m * l, 1, m, lambda l: m * l, 1, m)
    st['solve y: read'], st['solve y: write'] = lines(m * m, lambda l: l % m + m * m * (l // m), m, m,
                                                      lambda l: l % m + m * m * (l // m), m, m)
    st['solve z: read'] = plane(m * m, m)
    st['solve z: write'] = plane(m * m, m)
    # stages that run twice per patch (S^T and S) count twice in the total
    twice = {'solve x: read', 'solve x: write', 'solve y: read', 'solve y: write'}

    total = ideal_total = 0
    rows = []
    for name, fn in st.items():
        per = {tid: fn(tid // T, tid % T) for tid in range(threads)}
        ninstr = max(len(v) for v in per.values())
        wf = ideal = 0
        for w in range((threads + 31) // 32):
            for i in range(ninstr):
                words = {per[t][i] for t in range(32 * w, min(32 * w + 32, threads)) if per[t][i] is not None}
                if not words:
                    continue
                banks = {}
                for a in words:
                    banks.setdefault(a % 32, set()).add(a)
                wf += max(len(s) for s in banks.values())
                ideal += math.ceil(len(words) / 32)
        times = 2 if name in twice else 1
        total += times * wf
        ideal_total += times * ideal
        rows.append((name, wf / ideal))
    return PS, rows, total / P, ideal_total / P


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--threads', type=int, default=25)
    ap.add_argument('--patches', type=int, default=5)
    ap.add_argument('--stride-factor', type=int, default=1)
    ap.add_argument('--pad-z', type=int, default=None)
    a = ap.parse_args()
    PS, rows, total, ideal = simulate(a.threads, a.patches, a.stride_factor, a.pad_z)
    print(f'T = {a.threads}, P = {a.patches}, patch stride {PS} (= {PS % 32} mod 32)')
    for name, r in rows:
        print(f'  {name:26s} {r:.2f}')
    print(f'  wavefronts per patch: {total:.0f} (ideal {ideal:.0f}, {total / ideal:.2f}x)')


if __name__ == '__main__':
    main()
