#!/usr/bin/env python3
"""wfarchive.py - the WMS training set from a local copy of the public WfCommons archive
(repository wfcommons/WfInstances), split into a fit share and an untouched test share.

usage: tools/wfarchive.py ARCHIVE OUT [--manifest FILE]
       tools/wfarchive.py ARCHIVE OUT --check FILE

ARCHIVE is a checkout of the archive or its bare git directory (then the files are read from
its HEAD commit with `git show`). OUT receives OUT/SHARE/SYSTEM/*.json (SHARE fit or test, SYSTEM
the recorded runtime system in lower case: pegasus, makeflow, nextflow), copies of the instances,
which tools/derive/fit_wms.c reads: `fit-wms OUT/fit/pegasus --test OUT/test/pegasus`. The instances stay out of the repository: the archive is LGPL-3.0
(its LICENSE), which would allow them, but they are 139 MB. The manifest (default:
workflows/wms/wfcommons-training-set.tsv) records per instance its path in the archive, the
archive commit, its sha256, family, site, runtime system and version, recorded makespan, machines
and share. --check FILE extracts again and fails unless the result is FILE byte for byte.

Held-out instances. The four instances named in HELD_OUT are skipped by file name before their
content is read: they are never opened, hashed, fitted or tuned on (doc/wms.md, "Training set").

The split (doc/wms.md, "Training set"). A stratum is (family, site, runtime system, version,
cores per machine): the campaigns of the archive differ in all of these. The family is the file
name up to its first '-'; the site is the WfCommons naming convention's second field (third for
helloworld, whose name carries its shape first). Within a stratum the instances are ordered by
the sha256 of their file name (not of their content, so the order is fixed before any instance
is read), and every fourth one (positions 3, 7, 11, ...) goes to the test share: 1 in 4 of every
stratum of 4 or more. The seven instances shipped in ../shared/data/wfinstances were fitted on
before this split existed, so they are always in the fit share and take no position.
"""
import hashlib
import json
import os
import subprocess
import sys

HELD_OUT = {
    "1000genome-chameleon-8ch-250k-001.json",
    "cycles-chameleon-1l-1c-9p-001.json",
    "montage-chameleon-2mass-005d-001.json",
    "soykb-chameleon-10fastq-10ch-001.json",
}
SHIPPED = {
    "1000genome-chameleon-2ch-100k-001.json",
    "epigenomics-chameleon-hep-1seq-100k-001.json",
    "helloworld-chain-5-chameleon.json",
    "helloworld-forkjoin-10-chameleon.json",
    "montage-chameleon-dss-05d-001.json",
    "seismology-chameleon-100p-001.json",
    "srasearch-chameleon-10a-001.json",
}
TEST_EVERY = 4
COLUMNS = [
    "file", "archive_path", "commit", "sha256", "family", "site", "runtime_system", "version",
    "cores_per_machine", "machines", "tasks", "makespan_s", "share",
]


def is_bare(archive):
    return os.path.isfile(os.path.join(archive, "HEAD")) and os.path.isdir(
        os.path.join(archive, "objects"))


def git(archive, *args):
    flag = "--git-dir" if is_bare(archive) else "-C"
    return subprocess.run(["git", flag, archive, *args], check=True, capture_output=True).stdout


def listing(archive):
    """Paths of the archive's *.json files, sorted, and the commit they are read at."""
    try:
        commit = git(archive, "rev-parse", "HEAD").decode().strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        commit = "-"
    if is_bare(archive):
        names = git(archive, "ls-tree", "-r", "--name-only", "HEAD").decode().split("\n")
    else:
        names = [os.path.relpath(os.path.join(d, f), archive)
                 for d, _, fs in os.walk(archive) if "/.git" not in d + "/" for f in fs]
    return sorted(n for n in names if n.endswith(".json")), commit


def read(archive, path):
    """The file's bytes, or None when the copy lacks them (large files a mirror left out)."""
    try:
        if is_bare(archive):
            return git(archive, "show", "HEAD:" + path)
        with open(os.path.join(archive, path), "rb") as f:
            return f.read()
    except (subprocess.CalledProcessError, OSError):
        return None


def site_of(base):
    parts = base[:-5].split("-")
    if parts[0] == "helloworld":
        return parts[-1]
    return parts[1] if len(parts) > 1 else "-"


def describe(base, data):
    doc = json.loads(data)
    wf = doc.get("workflow", {})
    ex = wf.get("execution", wf)
    rs = doc.get("runtimeSystem") or doc.get("wms") or {}
    machines = ex.get("machines") or []
    cores = sorted({str((m.get("cpu") or {}).get("coreCount", "-")) for m in machines})
    tasks = wf.get("specification", wf).get("tasks") or ex.get("tasks") or wf.get("jobs") or []
    return {
        "family": base.split("-")[0],
        "site": site_of(base),
        "runtime_system": str(rs.get("name", "-")),
        "version": str(rs.get("version", "-")),
        "cores_per_machine": "+".join(cores) if cores else "-",
        "machines": str(len(machines)),
        "tasks": str(len(tasks)),
        "makespan_s": str(ex.get("makespanInSeconds", "-")),
    }


def main(argv):
    if len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] not in ("--manifest", "--check")):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    archive, out = argv[1], argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    manifest = os.path.join(here, "..", "workflows", "wms", "wfcommons-training-set.tsv")
    check = len(argv) == 5 and argv[3] == "--check"
    if len(argv) == 5:
        manifest = argv[4]
    paths, commit = listing(archive)
    rows, absent = [], []
    for path in paths:
        base = os.path.basename(path)
        if base in HELD_OUT:  # by name, before reading: never opened
            continue
        data = read(archive, path)
        if data is None or data[:40].startswith(b"version https://git-lfs"):
            absent.append(path)
            continue
        row = {"file": base, "archive_path": path, "commit": commit,
               "sha256": hashlib.sha256(data).hexdigest()}
        row.update(describe(base, data))
        row["_data"] = data
        rows.append(row)
    strata = {}
    for r in rows:
        key = (r["family"], r["site"], r["runtime_system"], r["version"], r["cores_per_machine"])
        strata.setdefault(key, []).append(r)
    for members in strata.values():
        pos = 0
        for r in sorted(members, key=lambda r: hashlib.sha256(r["file"].encode()).hexdigest()):
            if r["file"] in SHIPPED:
                r["share"] = "fit"
                continue
            r["share"] = "test" if pos % TEST_EVERY == TEST_EVERY - 1 else "fit"
            pos += 1
    for r in rows:
        sub = os.path.join(out, r["share"], r["runtime_system"].lower())
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, r["file"]), "wb") as f:
            f.write(r.pop("_data"))
    text = "# WfCommons training set for the WMS model (tools/wfarchive.py; doc/wms.md).\n"
    text += "# archive: wfcommons/WfInstances at commit %s; held out by name, never read: %s\n" % (
        commit, ", ".join(sorted(HELD_OUT)))
    for p in absent:
        text += "# absent from the copy read (not in the set): %s\n" % p
    text += "\t".join(COLUMNS) + "\n"
    for r in sorted(rows, key=lambda r: r["archive_path"]):
        text += "\t".join(r[c] for c in COLUMNS) + "\n"
    if check:
        with open(manifest) as f:
            if f.read() != text:
                sys.stderr.write("wfarchive: %s differs from this extraction\n" % manifest)
                return 1
    else:
        with open(manifest, "w") as f:
            f.write(text)
    n_test = sum(r["share"] == "test" for r in rows)
    print("%d instances (%d fit, %d test), %d absent, %d held out; manifest %s" % (
        len(rows), len(rows) - n_test, n_test, len(absent), len(HELD_OUT), manifest))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
