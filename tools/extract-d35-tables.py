#!/usr/bin/env python3
"""Reproducible transcription of the big benchmark tables of ESCAPE D3.5.

Reads the text of D3.5 (tab-separated tables, one caption line below each table) and writes the
five (threads x frequency) tables -- D3.5 Tables 25 (GFLOP/s), 26 (L1), 27 (L2), 28 (L3) and
29 (DRAM, GB/s) -- cell by cell, digits unchanged, as the CSV tables of
calibration/xeon-e5-2697v3 (flops.csv, L1.csv, L2.csv, L3.csv, DRAM.csv). The profile
hw-profiles/cpu/xeon-e5-2697v3.xml is then made from them (with that directory's machine.xml:
spec, frequency states, energy) by `dcsim calibrate cpu calibration/xeon-e5-2697v3`.

Usage:
    tools/extract-d35-tables.py [--seed PATH] [--out DIR] [--check]

--check compares the existing CSV files with what would be generated and exits 1 on a
difference (nothing is written).

Table captions: the body captions of the seed text are used (lines "Table N <title>" that are
not table-of-contents lines, which end in a tab and a page number); the table-of-contents
numbering is off by one in places and is never used.
"""
import argparse
import os
import re
import sys

DEFAULT_SEED = os.environ.get("D35_SEED", "/work/shared/seeds/escape-d3.5-projections.txt")
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FREQ_IDS = ["1.2", "1.4", "1.6", "1.8", "2.0", "2.4", "2.6", "turbo"]
# column headers as printed in the paper (Table 25 prints "trubo"; "2" is 2.0 GHz)
PAPER_FREQ_HEADERS = [{"1.2"}, {"1.4"}, {"1.6"}, {"1.8"}, {"2", "2.0"}, {"2.4"}, {"2.6"},
                      {"turbo", "trubo"}]

TABLES = [  # (table number, quantity, unit, expected caption start)
    (25, "flops", "GFLOP/s", "Performance of Intel Xeon E5-2697v3"),
    (26, "L1", "GB/s", "L1 cache bandwidth for Intel Xeon E5-2697v3"),
    (27, "L2", "GB/s", "L2 cache bandwidth for Intel Xeon E5-2697v3"),
    (28, "L3", "GB/s", "L3 cache bandwidth for Intel Xeon E5-2697v3"),
    (29, "DRAM", "GB/s", "DRAM bandwidth Intel Xeon E5-2697v3"),
]

NUM = re.compile(r"^[0-9]+(\.[0-9]+)?$")


def body_captions(lines):
    """Map table number -> (line index, title) for body captions (not TOC lines, not sentences)."""
    caps = {}
    for i, line in enumerate(lines):
        m = re.match(r"^Table (\d+) (.*)$", line.rstrip("\n"))
        if not m:
            continue
        if re.search(r"\t\d+\s*$", line):  # table-of-contents entry: "...<TAB>page"
            continue
        # a caption sits right under its table (tab-separated lines, or the note that stands in
        # for a withheld table); a body sentence such as "Table 10 presents ..." does not
        j = i - 1
        while j >= 0 and lines[j].strip() == "":
            j -= 1
        if j < 0 or not ("\t" in lines[j] or lines[j].startswith("[Numeric content")):
            continue
        num = int(m.group(1))
        if num in caps:
            raise SystemExit(f"two body captions for Table {num}")
        caps[num] = (i, m.group(2).strip())
    return caps


def table_block(lines, cap_index):
    """Tab-separated lines directly above a caption (blank lines inside are skipped)."""
    rows = []
    i = cap_index - 1
    while i >= 0:
        line = lines[i].rstrip("\n")
        if line.strip() == "":
            i -= 1
            continue
        if "\t" not in line:
            break
        rows.append(line.split("\t"))
        i -= 1
    rows.reverse()
    return rows


def extract(lines, caps, num, caption_start):
    idx, title = caps[num]
    if not title.startswith(caption_start):
        raise SystemExit(f"Table {num}: caption '{title}' does not start with '{caption_start}'")
    block = table_block(lines, idx)
    header = None
    data = {}
    for cells in block:
        cells = [c.strip() for c in cells]
        # frequency header: 8 frequency labels after the first cell
        if len(cells) >= 9 and all(cells[1 + k] in PAPER_FREQ_HEADERS[k] for k in range(8)):
            header = cells[1:9]
            continue
        if cells and re.fullmatch(r"\d+", cells[0]) and len(cells) >= 9:
            vals = cells[1:9]
            extra = [c for c in cells[9:] if c]
            if extra or not all(NUM.match(v) for v in vals):
                raise SystemExit(f"Table {num}: bad row {cells}")
            t = int(cells[0])
            if t in data:
                raise SystemExit(f"Table {num}: duplicate row for {t} threads")
            data[t] = vals
    if header is None:
        raise SystemExit(f"Table {num}: frequency header not found")
    if sorted(data) != list(range(1, 15)):
        raise SystemExit(f"Table {num}: rows {sorted(data)}, expected threads 1..14")
    return data


CSV_DIR = os.path.join(REPO, "calibration", "xeon-e5-2697v3")


def generate(seed):
    """{file name: text} of the five CSV tables of calibration/xeon-e5-2697v3."""
    with open(seed, encoding="utf-8") as f:
        lines = f.readlines()
    caps = body_captions(lines)
    files = {}
    for num, quantity, unit, cap in TABLES:
        data = extract(lines, caps, num, cap)
        out = [f"# D3.5 Table {num} \"{caps[num][1]}\": {quantity} in {unit}, digits as printed.\n",
               "# GENERATED by tools/extract-d35-tables.py from the text of ESCAPE D3.5; do not edit by hand.\n",
               "# columns: frequency (a freq id of machine.xml), threads, value, unit\n",
               "frequency,threads,value,unit\n"]
        for t in range(1, 15):
            for fid, v in zip(FREQ_IDS, data[t]):
                out.append(f"{fid},{t},{v},{unit}\n")
        files[f"{quantity}.csv"] = "".join(out)
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", default=DEFAULT_SEED)
    ap.add_argument("--out", default=CSV_DIR)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    files = generate(a.seed)
    bad = 0
    for name, text in files.items():
        path = os.path.join(a.out, name)
        if a.check:
            try:
                with open(path, encoding="utf-8") as f:
                    old = f.read()
            except FileNotFoundError:
                old = None
            if old != text:
                print(f"{path}: differs from the output of {sys.argv[0]}", file=sys.stderr)
                bad = 1
            continue
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {path}")
    if a.check and not bad:
        print(f"{a.out}: up to date")
    return bad


if __name__ == "__main__":
    sys.exit(main())
