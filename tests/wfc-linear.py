#!/usr/bin/env python3
"""wfc-linear.py DCSIM — `dcsim run` of a WfCommons instance of independent tasks, each its own
task type, takes time linear in its tasks (doc/robustness.md: the task types were once searched
linearly per task, 10^5 tasks took 8.5 s and 10^6 did not end in 300 s; under ASan a search of the file's
text per task was quadratic too). Runs 2*10^4 and 8*10^4 tasks and compares the CPU time (user +
system of the child, less sensitive to a loaded machine than the wall clock): linear is 4x, the
quadratic search was 13.5x; fails above 8x, or past 60 s of CPU (a hang; 10^5 tasks take 2.8 s
in the release build, 11 s under ASan: doc/robustness.md)."""
import json, os, resource, subprocess, sys, tempfile

def instance(path, n):
    tasks = [{"name": "t%d" % i, "id": "t%d_ID%d" % (i, i), "parents": [], "children": []}
             for i in range(n)]
    ex = [{"id": t["id"], "runtimeInSeconds": 1.5 + i % 7, "machines": ["alpha"]}
          for i, t in enumerate(tasks)]
    doc = {"name": "independent", "schemaVersion": "1.5",
           "workflow": {"specification": {"tasks": tasks, "files": []},
                        "execution": {"makespanInSeconds": 10, "executedAt": "2024-01-01T00:00:00Z",
                                      "tasks": ex, "machines": [{"nodeName": "alpha", "cpu": {
                                          "coreCount": 48, "speedInMHz": 2000}}]}}}
    with open(path, "w") as f:
        json.dump(doc, f)

def cpu_s(binary, path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([binary, "run", path, "--format", "json"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit("wfc-linear: FAIL: %s: exit %d: %s" % (path, r.returncode, r.stderr.decode()))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

binary = sys.argv[1]
with tempfile.TemporaryDirectory() as tmp:
    small, big = os.path.join(tmp, "small.json"), os.path.join(tmp, "big.json")
    instance(small, 20000)
    instance(big, 80000)
    t_small, t_big = cpu_s(binary, small), cpu_s(binary, big)
    print("wfc-linear: 2e4 tasks %.2f s, 8e4 tasks %.2f s of CPU: %.1fx" %
          (t_small, t_big, t_big / max(t_small, 1e-3)))
    if t_big > 8 * max(t_small, 0.05):
        sys.exit("wfc-linear: FAIL: 4x the tasks took %.1fx the time (linear: 4x)" %
                 (t_big / t_small))
    if t_big > 60:
        sys.exit("wfc-linear: FAIL: 8e4 tasks took %.2f s of CPU" % t_big)
