#!/usr/bin/env python3
"""gpu_phases.py — labelled power phases (tools/gpu-bench layout 2) from a layout-1 gpu-bench run
and a loads.cu run (../shared/data/gpu/h100/README.md), for `dcsim calibrate gpu`.

usage: tools/derive/gpu_phases.py DIR NCU.csv SMI.csv[,SMI2.csv] > phases.csv
       tools/derive/gpu_phases.py --recount BENCH.csv NCU.csv > phases.csv   (layout 2, below)
  DIR      holds bench.csv and power.csv (tools/gpu-bench as of d35d502) and loads.csv (loads.cu)
  NCU.csv  Nsight Compute --page raw --csv of `loads profile` (per-point counts of the kernels)
  SMI.csv  nvidia-smi logs, comma-separated (timestamp,power.draw,...,clocks.current.sm,...),
           covering loads.cu's phases and, in their first rows, the board before any context

What each phase is (doc/calibration.md "GPU power by activity"):
  idle_nocontext  the SMI samples at the lowest SM clock (345 MHz on an H100: no context)
  fp64, dram      gpu-bench layout 1's loaded loop (power.csv): FP64 FMA for 10 s, then the
                  STREAM triad for 10 s, one kernel per sample; each window from 2 s after its
                  start; counts from gpu_bench.cu's kernels (fma64: 8 x 4096 DFMA and 2 x 4096
                  loop instructions per thread, 270336 threads; triad: per element 1 DFMA,
                  4 loop instructions, 24 B of DRAM and of L2 traffic)
  idle_context*, transt*, stencil512
                  loads.csv's phase rows, power = median of the SMI samples from 1.5 s after the
                  start; per launch the kernel's Nsight Compute counts per point x its points
Only Python's standard library; deterministic output.
"""
import csv
import datetime
import statistics
import sys

SIZES = [5, 10, 20, 50, 100, 200, 300, 16, 32, 64, 128, 256, 512]


def ncu_counts(path):
    """Per kernel and size: counts per point (fp64, fp32, other, dram, l2) from the raw page."""
    lines = open(path).read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    hdr, data = rows[0], rows[2:]

    def col(name):
        i = hdr.index(name)
        return [float(r[i].replace(',', '')) for r in data]

    el = col('smsp__cycles_elapsed.avg')
    op = lambda o: col('smsp__sass_thread_inst_executed_op_%s_pred_on.sum.per_cycle_elapsed' % o)
    fp64 = [(a + b + c) * e for a, b, c, e in zip(op('dfma'), op('dadd'), op('dmul'), el)]
    fp32 = [(a + b + c) * e for a, b, c, e in zip(op('ffma'), op('fadd'), op('fmul'), el)]
    thr = col('thread_inst_executed_true')
    dram = [a + b for a, b in zip(col('dram__bytes_read.sum'), col('dram__bytes_write.sum'))]
    l2 = [32 * x for x in col('lts__t_sectors.sum')]
    out = {}
    for i, s in enumerate(SIZES):
        kind = 'transt' if i < 7 else 'stencil'
        n = s * s * 80 if kind == 'transt' else s ** 3
        out[(kind, s)] = (n, fp64[i] / n, fp32[i] / n, (thr[i] - fp64[i] - fp32[i]) / n,
                          dram[i] / n, l2[i] / n)
    return out


def smi_samples(path):
    rows = []
    for r in csv.reader(open(path)):
        if r[0].startswith('timestamp'):
            hdr = [x.strip() for x in r]
            continue
        t = datetime.datetime.strptime(r[0].strip(), '%Y/%m/%d %H:%M:%S.%f')
        t = t.replace(tzinfo=datetime.timezone.utc).timestamp()
        w = float(r[hdr.index('power.draw [W]')].split()[0])
        clk = float(r[hdr.index('clocks.current.sm [MHz]')].split()[0])
        rows.append((t, w, clk))
    return rows


def bench_rows(path):
    rows = list(csv.reader(open(path)))
    return [r for r in rows if r and not r[0].startswith('#') and r[0] != 'metric']


def main():
    d, ncu_path, smi_path = sys.argv[1:4]
    ncu = ncu_counts(ncu_path)
    smi = sorted(x for p in smi_path.split(',') for x in smi_samples(p))
    bench = bench_rows(d + '/bench.csv')
    val = {r[0]: float(r[2]) for r in bench if r[0] not in ('device_name', 'compute_capability',
                                                            'kernel_s')}
    w = csv.writer(sys.stdout, lineterminator='\n')
    print('# dcsim gpu-bench 2')
    print('# derived by tools/derive/gpu_phases.py from %s (gpu-bench layout 1, loads.cu, '
          'Nsight Compute %s, nvidia-smi %s)' % (d, ncu_path.split('/')[-1], ' and '.join(p.split('/')[-1] for p in smi_path.split(','))))
    w.writerow(['metric', 'size', 'value', 'unit'])
    for r in bench:
        if not r[0].startswith('power_') or r[0] == 'power_limit_w':
            w.writerow(r)

    def phase(name, start, dur, power, context, launches, busy, counts=None):
        w.writerow(['phase_start_s', name, '%.3f' % start, 's'])
        w.writerow(['phase_s', name, '%.4g' % dur, 's'])
        w.writerow(['phase_w', name, '%.5g' % power, 'W'])
        w.writerow(['phase_context', name, context, ''])
        w.writerow(['phase_launches', name, launches, ''])
        w.writerow(['phase_busy_s', name, '%.5g' % busy, 's'])
        if counts:
            for m, v, u in zip(('fp64_inst', 'fp32_inst', 'other_inst', 'dram_byte', 'l2_byte'),
                               counts, ('inst', 'inst', 'inst', 'B', 'B')):
                w.writerow(['phase_' + m, name, '%.6g' % v, u])

    # before any context: the samples at the lowest SM clock
    cmin = min(c for _, _, c in smi)
    nc = [(t, p) for t, p, c in smi if c == cmin]
    phase('idle_nocontext', nc[0][0], nc[-1][0] - nc[0][0], statistics.median(p for _, p in nc),
          0, 0, 0)
    # gpu-bench layout 1's loaded loop
    pw = []
    for r in csv.reader(open(d + '/power.csv')):
        if not r[0].startswith('timestamp'):
            pw.append((float(r[0]), float(r[1].split()[0])))
    t0 = pw[11][0]  # 10 idle samples and the active-idle sample come first
    threads, iters = int(val['sm']) * 2048, 4096
    n = 805306368 // 24  # triad elements (3 x 256 MiB)
    k_fma = 2.0 * 8 * iters * threads / val['fp64_fma_flops']
    k_triad = 805306368 / val['stream_triad_bps']
    for name, a, b, kt, per in (
            ('fp64', 2, 10, k_fma, (8.0 * iters * threads, 0, 2.0 * iters * threads, 0, 0)),
            ('dram', 12, 20, k_triad, (n, 0, 4.0 * n, 24.0 * n, 24.0 * n))):
        win = [p for t, p in pw[11:] if t0 + a <= t < t0 + b]
        launches = len(win)  # one sample per kernel
        phase(name, t0 + a, b - a, statistics.median(win), 1, launches,
              min(b - a, launches * kt), [launches * x for x in per])
    # loads.cu's phases
    for r in csv.reader(open(d + '/loads.csv')):
        if r[0] != 'phase':
            continue
        name, launches, a, b = r[1], int(r[2]), float(r[3]), float(r[4])
        win = [p for t, p, _ in smi if a + 1.5 <= t <= b]
        counts, busy = None, 0
        if launches:
            kind = 'transt' if name.startswith('transt') else 'stencil'
            size = int(''.join(ch for ch in name.split('_')[0] if ch.isdigit()))
            ev = [x for x in csv.reader(open(d + '/loads.csv'))
                  if x[0] == 'event_s' and x[1] == kind and int(x[2]) == size]
            busy = min(b - a, launches * float(ev[0][3]))
            npt, *per = ncu[(kind, size)]
            counts = [launches * npt * x for x in per]
        phase(name, a, b - a, statistics.median(win), 1, launches, busy, counts)


# ---- --recount: a layout-2 bench CSV with its phases' counts from Nsight Compute ----
# gpu-bench layout 2 counts each synthetic phase's work from its kernels' source; device-run.sh's
# ncu.csv measures one launch of each (gpu-bench --profile, in this order). --recount replaces the
# counts by launches x the measured counts per launch: fp64 and fp32 = the op_fp64 / op_fp32
# thread instructions, other = all thread instructions less those, dram = bytes read + written,
# l2 = lts__t_bytes, warp = smsp__inst_executed (warp instructions issued). The requested bytes
# (phase_request_byte) are the source's: kept from the bench CSV, or, for a CSV written before
# gpu-bench had that row, computed from gpu_bench.cu's launch sizes (REQUEST below). The kernels
# of loads.cu keep no counts (their dwarfs predict them).
PROFILE_ORDER = ['dram', 'fp64', 'fp32', 'int', 'l2', 'latency', 'launch', None, None, None,
                 'diverge', 'gather', 'mix', 'lowipc']


def request_per_launch(name, val, triad_bytes):
    """Global-memory bytes one launch of a synthetic phase's kernel requests (gpu_bench.cu)."""
    threads = val['sm'] * 2048
    return {'dram': triad_bytes,                   # triad: 2 loads + 1 store of 8 B per element
            'l2': 16.0 * (1 << 20) * 64,           # l2copy: 8 B load + 8 B store, 2^20 x 64
            'gather': 8.0 * threads * 1024,        # one 8 B load per step, 1024 steps
            'mix': 8.0 * threads * 12 / 32 * 256,  # 12 of 32 lanes, 256 steps
            'lowipc': 8.0 * val['sm'] * 256 * 12 / 32 * 4096,  # one block of 256 per SM
            }.get(name, 0.0)


def recount(bench_path, ncu_path):
    per = {}
    for r in csv.reader(open(ncu_path)):
        if len(r) < 15 or r[0] == 'ID' or not r[0].isdigit():
            continue
        per.setdefault(int(r[0]), {})[r[12]] = float(r[14].replace(',', ''))
    counts = {}
    for i, name in enumerate(PROFILE_ORDER):
        if name is None or i not in per:
            continue
        m = per[i]
        f64 = m['smsp__sass_thread_inst_executed_op_fp64_pred_on.sum']
        f32 = m['smsp__sass_thread_inst_executed_op_fp32_pred_on.sum']
        counts[name] = (f64, f32, m['smsp__thread_inst_executed.sum'] - f64 - f32,
                        m['dram__bytes_read.sum'] + m['dram__bytes_write.sum'], m['lts__t_bytes.sum'],
                        m['smsp__inst_executed.sum'])
    rows = list(csv.reader(open(bench_path)))
    launches = {r[1]: float(r[2]) for r in rows if r and r[0] == 'phase_launches'}
    val = {r[0]: float(r[2]) for r in rows
           if r and not r[0].startswith('#') and r[0] in ('sm',)}
    triad = [float(r[1]) for r in rows if r and r[0] == 'stream_triad_bps']
    has_req = {r[1] for r in rows if r and r[0] == 'phase_request_byte'}
    keys = ['phase_fp64_inst', 'phase_fp32_inst', 'phase_other_inst', 'phase_dram_byte',
            'phase_l2_byte', 'phase_warp_inst']
    w = csv.writer(sys.stdout, lineterminator='\n')
    for r in rows:
        if r and r[0].startswith('#'):
            print(','.join(r))
            if r[0].startswith('# dcsim'):
                print('# phase counts: launches x Nsight Compute per launch (%s), tools/derive/'
                      'gpu_phases.py --recount' % ncu_path.split('/')[-1])
            continue
        if r and r[0] in keys:
            if r[1] not in counts:
                continue
            r = [r[0], r[1], '%.6g' % (launches[r[1]] * counts[r[1]][keys.index(r[0])]), r[3]]
        w.writerow(r)
        if r and r[0] == 'phase_l2_byte' and r[1] in counts:
            name = r[1]
            if not any(x and x[0] == 'phase_warp_inst' and x[1] == name for x in rows):
                w.writerow(['phase_warp_inst', name, '%.6g' % (launches[name] * counts[name][5]),
                            'inst'])
            if name not in has_req:
                w.writerow(['phase_request_byte', name, '%.6g' % (
                    launches[name] * request_per_launch(name, val, triad[0] if triad else 0)), 'B'])


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == '--recount':
        recount(sys.argv[2], sys.argv[3])
    else:
        main()
