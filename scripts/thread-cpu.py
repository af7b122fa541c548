#!/usr/bin/env python3
"""The serial part of a threaded run (issue 25, docs/speed.md): runs CMD with its stdout to OUT
and prints its wall time, its main thread's CPU time (user + system) and the whole process's,
each the last of samples of /proc taken every 20 ms (Linux). A stream's main thread reads and
writes while the worker threads wait, so its share is Amdahl's serial fraction. A benchmark,
it asserts nothing.

    python3 scripts/thread-cpu.py OUT CMD [ARGS...]
"""
import os, subprocess, sys, time
out = sys.argv[1]; cmd = sys.argv[2:]
tick = os.sysconf('SC_CLK_TCK')
def cpu(path):
    try:
        s = open(path).read()
        f = s[s.rindex(')') + 2:].split()
        return (int(f[11]) + int(f[12])) / tick  # utime, stime
    except Exception:
        return None
t0 = time.time()
with open(out, 'wb') as o:
    p = subprocess.Popen(cmd, stdout=o, stderr=subprocess.DEVNULL)
    main = whole = 0.0
    while p.poll() is None:
        m = cpu(f'/proc/{p.pid}/task/{p.pid}/stat'); w = cpu(f'/proc/{p.pid}/stat')
        if m is not None: main = m
        if w is not None: whole = w
        time.sleep(0.02)
wall = time.time() - t0
print(f'wall {wall:.2f} s; CPU: main thread {main:.2f} s, whole process {whole:.2f} s (last sample); exit {p.returncode}')
