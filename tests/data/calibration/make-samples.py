#!/usr/bin/env python3
"""tests/data/calibration/make-samples.py — writes the sample exports of tests/data/calibration/
(see README.md there). Run from the source root; the outputs are committed, so this only needs to
run again when the construction changes. Deterministic: no randomness, no clock.

gpu/      D3.5 Table 9 (read from dwarfs/acraneb2.xml) inverted through Table 8 for N = 3,200,000
          on two "GPUs" whose characteristics lie symmetrically around Table 9, written as nvprof
          --csv logs (GeForce GTX 970, Tesla K20m) and the K20m counters once more in ncu --csv layout.
likwid/   likwid-bench 5 text output for the Xeon E5-2697 v3 at 2.6 GHz whose MByte/s and MFlops/s
          are D3.5 Tables 25-29 (read from calibration/xeon-e5-2697v3/*.csv).
kerncraft/ a Kerncraft machine file of the same processor whose load results are those tables.
"""
import csv
import math
import os
import xml.etree.ElementTree as ET

OUT = "tests/data/calibration"
N = 3_200_000

# ---------------------------------------------------------------- GPU (D3.5 Tables 7-9)

def table9():
    root = ET.parse("dwarfs/acraneb2.xml").getroot()
    ks = []
    for k in root.find("kernels").findall("kernel"):
        ks.append({a: (k.get(a) if a == "name" else float(k.get(a))) for a in
                   ["name", "P-inactive", "P-misc", "P-cfl", "G-e", "G-r-byte", "i-int", "i-sp", "i-dp", "I-e", "IPC-e"]})
    return ks

# two GPUs around Table 9: counts x (1 +- 7.31 %), P_i +- 0.01, P_m +- 0.005, P_cfl +- 0.001,
# IPC x (1 +- 5 %), G_e +- 0.02, G_r x (1 +- 4.17 %); the means are Table 9 again.
GPUS = [
    dict(sign=+1, device="GeForce GTX 970 (0)", clock=1.38e9, sm=13),
    dict(sign=-1, device="Tesla K20m (0)", clock=7.06e8, sm=13),
]
SPLIT = (0.62, 0.23, 0.15)  # requested global bytes: load, store, non-coherent load


def counters(k, g):
    s = g["sign"]
    c = 1 + s * 0.0731
    Ie = round(k["I-e"] * c * N)
    ii = round(k["i-int"] * c * N)
    isp = round(k["i-sp"] * c * N)
    idp = round(k["i-dp"] * c * N)
    slots = Ie * 32
    tot = (1 - (k["P-inactive"] + s * 0.01)) * slots
    misc = round((k["P-misc"] + s * 0.005) * slots)
    cf = round((k["P-cfl"] + s * 0.001) * slots)
    rest = round(tot) - ii - isp - idp - misc - cf
    assert rest > 0, (k["name"], rest)
    ldst = round(0.83 * rest)
    bc = rest - ldst
    ipc = k["IPC-e"] * (1 + s * 0.05)
    ge = k["G-e"] + s * 0.02
    req = k["G-r-byte"] * (1 + s * 0.0417) * N
    got = req / ge
    T = Ie / (ipc * g["clock"] * g["sm"])  # = active cycles / (clock x SMs)
    ac = round(Ie / ipc)
    return dict(inst_control=cf, inst_bit_convert=bc, inst_misc=misc, inst_compute_ld_st=ldst, inst_integer=ii,
                inst_fp_32=isp, inst_fp_64=idp, inst_executed=Ie, ipc=ipc, active_cycles=ac, T=T,
                req=[req * f for f in SPLIT], got=[got * f for f in SPLIT])


def nv_rate(bps):
    for unit, div in (("GB/s", 1e9), ("MB/s", 1e6), ("KB/s", 1e3)):
        if bps >= div:
            return "%.4f%s" % (bps / div, unit)
    return "%.6fB/s" % bps


DESC = dict(inst_control="Control-Flow Instructions", inst_bit_convert="Bit-Convert Instructions",
            inst_misc="Misc Instructions", inst_compute_ld_st="Load/Store Instructions",
            inst_integer="Integer Instructions", inst_fp_32="FP Instructions(Single)",
            inst_fp_64="FP Instructions(Double)", inst_executed="Instructions Executed", ipc="Executed IPC",
            gld_requested_throughput="Requested Global Load Throughput",
            gst_requested_throughput="Requested Global Store Throughput",
            nc_gld_requested_throughput="Requested Non-Coherent Global Load Throughput",
            gld_throughput="Global Load Throughput", gst_throughput="Global Store Throughput",
            nc_gld_throughput="Non-Coherent Global Memory Load Throughput",
            sm_efficiency="Multiprocessor Activity")


def write_nvprof(path, ks, g, with_ipc, pid):
    cs = [(k, counters(k, g)) for k in ks]
    L = []
    L.append("==%d== NVPROF is profiling process %d, command: ./acraneb2 200 200 80" % (pid, pid))
    L.append("==%d== Profiling application: ./acraneb2 200 200 80" % pid)
    L.append("==%d== Profiling result:" % pid)
    # summary of a plain run (CUDA 8 layout: no Type column), times in ms
    L.append('"Time(%)","Time","Calls","Avg","Min","Max","Name"')
    L.append("%,ms,,ms,ms,ms,")
    total = sum(2 * c["T"] for _, c in cs)
    for k, c in sorted(cs, key=lambda kc: -kc[1]["T"]):
        t = c["T"] * 1e3
        L.append('%f,%f,2,%f,%f,%f,"%s"' % (100 * 2 * c["T"] / total, 2 * t, t, t * 0.9993, t * 1.0007, k["name"]))
    L.append('0.000124,0.029518,4,0.007379,0.001216,0.013088,"[CUDA memcpy HtoD]"')
    L.append("==%d== NVPROF is profiling process %d, command: ./acraneb2 200 200 80" % (pid + 1, pid + 1))
    L.append("==%d== Some kernel(s) will be replayed on device 0 in order to collect all events/metrics." % (pid + 1))
    L.append("==%d== Profiling application: ./acraneb2 200 200 80" % (pid + 1))
    L.append("==%d== Profiling result:" % (pid + 1))
    L.append("==%d== Event result:" % (pid + 1))
    L.append('"Device","Kernel","Invocations","Event Name","Min","Max","Avg","Total"')
    for k, c in cs:
        ac = c["active_cycles"]
        L.append('"%s","%s",2,"active_cycles",%d,%d,%d,%d' % (g["device"], k["name"], ac - 3, ac + 3, ac, 2 * ac))
    L.append("")
    L.append("==%d== Metric result:" % (pid + 1))
    L.append('"Device","Kernel","Invocations","Metric Name","Metric Description","Min","Max","Avg"')
    for k, c in cs:
        rows = []
        for m in ["inst_control", "inst_bit_convert", "inst_misc", "inst_compute_ld_st", "inst_integer", "inst_fp_32",
                  "inst_fp_64", "inst_executed"]:
            v = c[m]
            rows.append((m, "%d" % v, "%d" % v, "%d" % v))
        if with_ipc:
            rows.append(("ipc", "%f" % (c["ipc"] * 0.999), "%f" % (c["ipc"] * 1.001), "%f" % c["ipc"]))
        T = c["T"]
        names = [("gld_requested_throughput", c["req"][0]), ("gst_requested_throughput", c["req"][1]),
                 ("nc_gld_requested_throughput", c["req"][2]), ("gld_throughput", c["got"][0]),
                 ("gst_throughput", c["got"][1]), ("nc_gld_throughput", c["got"][2])]
        for m, b in names:
            r = b / T
            rows.append((m, nv_rate(r * 0.998), nv_rate(r * 1.002), nv_rate(r)))
        rows.append(("sm_efficiency", "98.713000%", "98.902000%", "98.807500%"))
        for m, lo, hi, avg in rows:
            L.append('"%s","%s",2,"%s","%s",%s,%s,%s' % (g["device"], k["name"], m, DESC[m], lo, hi, avg))
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


NCU = {"inst_control": "smsp__sass_thread_inst_executed_op_control_pred_on.sum",
       "inst_bit_convert": "smsp__sass_thread_inst_executed_op_conversion_pred_on.sum",
       "inst_misc": "smsp__sass_thread_inst_executed_op_misc_pred_on.sum",
       "inst_compute_ld_st": "smsp__sass_thread_inst_executed_op_memory_pred_on.sum",
       "inst_integer": "smsp__sass_thread_inst_executed_op_integer_pred_on.sum",
       "inst_fp_32": "smsp__sass_thread_inst_executed_op_fp32_pred_on.sum",
       "inst_fp_64": "smsp__sass_thread_inst_executed_op_fp64_pred_on.sum",
       "inst_executed": "smsp__inst_executed.sum"}


def thousands(x):
    return "{:,}".format(int(round(x)))


def write_ncu(path, ks, g):
    L = ["==PROF== Connected to process 31337 (/home/user/acraneb2/acraneb2)"]
    for k in ks:
        L.append("==PROF== Profiling \"%s\" - %d: 0%%....50%%....100%% - 12 passes" % (k["name"], ks.index(k)))
    L.append("==PROF== Disconnected from process 31337")
    L.append('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC",'
             '"Section Name","Metric Name","Metric Unit","Metric Value"')
    launch = 0
    for rep in range(2):  # the dwarf called once: every kernel launched twice, alternating
        for k in ks:
            c = counters(k, g)
            f = 1 + (0.004 if rep == 0 else -0.004)  # a slightly longer and a slightly shorter launch
            base = '"%d","31337","acraneb2","127.0.0.1","%s","1","7","(128, 1, 1)","(25000, 1, 1)","0","7.0","Command line profiler metrics"' % (
                launch, k["name"])
            rows = [(NCU[m], "inst", thousands(c[m] * f)) for m in NCU]
            rows.append(("sm__inst_executed.avg.per_cycle_active", "inst/cycle",
                         "%.6g" % (c["ipc"] * (1 + (0.003 if rep == 0 else -0.003)))))
            rows.append(("gpu__time_duration.sum", "nsecond", thousands(c["T"] * f * 1e9)))
            # one L1TEX path on sm_70+: the non-coherent loads are global loads
            rows.append(("smsp__sass_data_bytes_mem_global_op_ld.sum", "byte", thousands((c["req"][0] + c["req"][2]) * f)))
            rows.append(("smsp__sass_data_bytes_mem_global_op_st.sum", "byte", thousands(c["req"][1] * f)))
            rows.append(("l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum", "byte", thousands((c["got"][0] + c["got"][2]) * f)))
            rows.append(("l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum", "byte", thousands(c["got"][1] * f)))
            rows.append(("sm__warps_active.avg.pct_of_peak_sustained_active", "%", "31.42"))
            for m, u, v in rows:
                L.append(base + ',"%s","%s","%s"' % (m, u, v))
            launch += 1
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


def gpu():
    ks = table9()
    write_nvprof(OUT + "/gpu/gtx970-nvprof.csv", ks, GPUS[0], True, 20311)
    write_nvprof(OUT + "/gpu/k20m-nvprof.csv", ks, GPUS[1], False, 8823)
    write_ncu(OUT + "/gpu/k20m-as-ncu.csv", ks, GPUS[1])
    with open(OUT + "/gpu/manifest.csv", "w") as f:
        f.write("# one export per GPU and the size N of the domain it was profiled on (200x200x80)\n"
                "export,domain_size\ngtx970-nvprof.csv,3200000\nk20m-nvprof.csv,3200000\n")

# ---------------------------------------------------------------- likwid-bench 5 output

HL = "-" * 80


def d35(q, threads):
    with open("calibration/xeon-e5-2697v3/%s.csv" % q) as f:
        for r in csv.DictReader(row for row in f if not row.startswith("#")):
            if r["frequency"] == "2.6" and int(r["threads"]) == threads:
                return float(r["value"])
    raise KeyError((q, threads))


TESTS = {  # streams, bytes per update, flops per update, loads, stores, load bytes, store bytes
    "load_avx": (1, 8, 0, 1, 0, 8, 0),
    "copy_avx": (2, 16, 0, 1, 1, 8, 8),
    "peakflops_avx": (1, 8, 16, 1, 0, 8, 0),
    "peakflops_sp_avx": (1, 4, 32, 1, 0, 4, 0),
}


def likwid_run(test, total_byte, threads, rate, is_flops):
    streams, bpu, fpu, loads, stores, lb, sb = TESTS[test]
    elems = total_byte // bpu          # realSize: updates over all threads
    per_thread = elems // threads
    mbyte = rate * bpu / fpu if is_flops else rate  # MFlops/s = MByte/s x flops / bytes per update
    # about one second of run time, iterations a power of two as likwid-bench picks them
    target = mbyte * 1e6 / (elems * bpu)
    it = 2 ** max(0, round(math.log2(max(target, 1))))
    volume = it * elems * bpu
    time = volume / (mbyte * 1e6)
    clock = 2600000000
    cycles = round(time * clock * 1.0002)
    out = []
    vec = total_byte // (streams * lb)  # elements per stream
    for s in range(streams):
        out.append("Allocate: Process running on hwthread 0 (Domain S0) - Vector length %d/%d Offset 0 Alignment 512" % (
            vec, total_byte // streams))
    out += [HL, "LIKWID MICRO BENCHMARK", "Test: " + test, HL, "Using 1 work groups", "Using %d threads" % threads, HL,
            "Running without Marker API. Activate Marker API with -m on commandline.", HL]
    order = list(range(threads))
    order = order[1:] + order[:1] if threads > 1 else order  # threads report in the order they start
    for t in order:
        out.append("Group: 0 Thread %d Global Thread %d running on hwthread %d - Vector length %d Offset %d" % (
            t, t, t, vec // threads, t * (vec // threads)))
    out.append(HL)
    cpu = cycles / (it * elems)
    out += ["Cycles:\t\t\t%d" % cycles, "CPU Clock:\t\t%d" % clock, "Cycle Clock:\t\t%d" % clock,
            "Time:\t\t\t%e sec" % time, "Iterations:\t\t%d" % (it * threads), "Iterations per thread:\t%d" % it,
            "Inner loop executions:\t%d" % per_thread, "Size (Byte):\t\t%d" % total_byte,
            "Size per thread:\t%d" % (total_byte // threads), "Number of Flops:\t%d" % (it * elems * fpu),
            "MFlops/s:\t\t%.2f" % (it * elems * fpu / time / 1e6), "Data volume (Byte):\t%d" % volume,
            "MByte/s:\t\t%.2f" % (volume / time / 1e6), "Cycles per update:\t%f" % cpu,
            "Cycles per cacheline:\t%f" % (cpu * 64 / bpu), "Loads per update:\t%d" % loads,
            "Stores per update:\t%d" % stores, "Load bytes per element:\t%d" % lb, "Store bytes per elem.:\t%d" % sb]
    if stores:
        out.append("Load/store ratio:\t%.2f" % (loads / stores))
    out += ["Instructions:\t\t%d" % (it * elems // 4 * (streams + 2) + 32), "UOPs:\t\t\t%d" % (it * elems // 4 * (streams + 1)), HL]
    return out


def likwid():
    sets = [("load_avx-L1.txt", "load_avx", "L1", lambda t: 16000 * t),
            ("load_avx-L2.txt", "load_avx", "L2", lambda t: 128000 * t),
            ("load_avx-L3.txt", "load_avx", "L3", lambda t: 16000000),
            ("load_avx-mem.txt", "load_avx", "DRAM", lambda t: 2000000000),
            ("peakflops_avx.txt", "peakflops_avx", "flops", lambda t: 16000 * t)]
    for fname, test, q, size in sets:
        lines = []
        for t in (1, 2, 14):
            v = d35(q, t) * 1000  # GB/s -> MByte/s, GFLOP/s -> MFlops/s
            lines += likwid_run(test, size(t), t, v, q == "flops")
        with open(OUT + "/likwid/" + fname, "w") as f:
            f.write("\n".join(lines) + "\n")
    # a copy run (a second bandwidth family) and a single-precision peakflops run
    with open(OUT + "/likwid/copy_avx-L1.txt", "w") as f:
        f.write("\n".join(likwid_run("copy_avx", 32000, 1, 118440.0, False)) + "\n")
    with open(OUT + "/likwid/peakflops_sp_avx.txt", "w") as f:
        f.write("\n".join(likwid_run("peakflops_sp_avx", 16000, 1, 41600.0, True)) + "\n")

# ---------------------------------------------------------------- Kerncraft machine file


def flow(items, indent, first):
    """A flow sequence wrapped near 80 columns the way ruamel.yaml (Kerncraft) writes it."""
    s, col, lines = "[", first + 1, []
    for i, it in enumerate(items):
        piece = it + (", " if i + 1 < len(items) else "]")
        if col + len(piece) > 80:
            if " " in it and col + len(it.split(" ")[0]) + 1 <= 80:  # break inside "1835.76 GB/s"
                num, unit = it.split(" ", 1)
                s += num
                lines.append(s)
                s, col = " " * (indent + 2) + unit + piece[len(it):], indent + 2 + len(unit) + len(piece) - len(it)
                continue
            lines.append(s.rstrip())
            s, col = " " * indent, indent
        s += piece
        col += len(piece)
    lines.append(s)
    return "\n".join(lines)


def kerncraft():
    cores = list(range(1, 15))
    out = ["# Kerncraft machine file of the Intel Xeon E5-2697 v3 (Haswell EP), the D3.5 reference node,",
           "# written for dcsim's tests in Kerncraft's format (examples/machine-files/*.yml of RRZE-HPC/kerncraft).",
           "# The 'load' results are D3.5 Tables 26-29 at 2.6 GHz rounded to two decimals (Kerncraft's",
           "# precision); the other benchmark kernels are left out. Made by tests/data/calibration/make-samples.py.",
           "kerncraft version: 0.8.11.dev0", "",
           "model type: Intel Core Haswell EN/EP/EX processor",
           "model name: Intel(R) Xeon(R) CPU E5-2697 v3 @ 2.60GHz", "clock: 2.6 GHz", "",
           "sockets: 2", "threads per core: 2", "cores per socket: 14", "cores per NUMA domain: 14",
           "NUMA domains per socket: 1", "transparent hugepage: always", "",
           "compiler: !!omap", "- icc: -O3 -xCORE-AVX2 -fno-alias -qopenmp -ffreestanding -nolib-inline",
           "- gcc: -O3 -march=core-avx2 -D_POSIX_C_SOURCE=200809L -fopenmp -lm -ffreestanding", "",
           "in-core model: !!omap", "  - OSACA: HSW", "  - IACA: HSW", "isa: x86", "",
           "FLOPs per cycle:", "  SP: {total: 32, FMA: 16, ADD: 8, MUL: 8}", "  DP: {total: 16, FMA: 8, ADD: 4, MUL: 4}", "",
           "write-allocate: true", "cacheline size: 64 B", "memory hierarchy:"]
    for lv, sets, ways, cpg, groups, extra in (("L1", 64, 8, 1, 28, ", load_from: L2, store_to: L2"),
                                                ("L2", 512, 8, 1, 28, ", load_from: L3, store_to: L3"),
                                                ("L3", 35840, 16, 14, 2, "")):
        out += ["- level: %s" % lv,
                "  cache per group: {sets: %d, ways: %d, cl_size: 64, replacement_policy: LRU, write_allocate: true," % (sets, ways),
                "    write_back: true%s}" % extra,
                "  cores per group: %d" % cpg, "  threads per group: %d" % (2 * cpg), "  groups: %d" % groups,
                "  transfers overlap: false"]
    out += ["- level: MEM", "  cores per group: 14", "  upstream throughput: [full socket memory bandwidth, half-duplex]",
            "  transfers overlap: false", "  size per group:", "  threads per group: 28", "",
            "benchmarks:", "  kernels:", "    load:", "      FLOPs per iteration: 0", "      fastest bench kernel: load_avx",
            "      read streams: {bytes: 8.00 B, streams: 1}", "      read+write streams: {bytes: 0.00 B, streams: 0}",
            "      write streams: {bytes: 0.00 B, streams: 0}", "  measurements:"]
    sizes = {"L1": lambda c: 21.63e3, "L2": lambda c: 173.02e3, "L3": lambda c: 24.22e6 / c, "MEM": lambda c: 363.30e6}

    def unit(b):
        return "%.2f kB" % (b / 1e3) if b < 1e6 else "%.2f MB" % (b / 1e6)

    for lv, q in (("L1", "L1"), ("L2", "L2"), ("L3", "L3"), ("MEM", "DRAM")):
        res = ["%.2f GB/s" % d35(q, c) for c in cores]
        per = [unit(sizes[lv](c)) for c in cores]
        tot = [unit(sizes[lv](c) * c) for c in cores]
        out += ["    %s:" % lv, "      1:",
                "        cores: " + flow([str(c) for c in cores], 10, 15),
                "        results:",
                "          load: " + flow(res, 12, 16),
                "        size per core: " + flow(per, 10, 23),
                "        size per thread: " + flow(per, 10, 25),
                "        threads: " + flow([str(c) for c in cores], 10, 17),
                "        threads per core: 1",
                "        total size: " + flow(tot, 10, 20)]
    with open(OUT + "/kerncraft/HaswellEP_E5-2697v3.yml", "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    gpu()
    likwid()
    kerncraft()
