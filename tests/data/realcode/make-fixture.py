#!/usr/bin/env python3
"""Writes tests/data/realcode/synthetic/measurements.csv (README.md beside this file): the fit rows
are dcsim's own predictions with the dwarfs' fitted coefficients set to known values, the test rows
the same moved by a random factor in 0.7..1.3. Run from the source root after a build:
    python3 tests/data/realcode/make-fixture.py"""
import json, os, random, re, subprocess, tempfile

random.seed(36)
KNOWN = {'ectrans-global': {'fft': ('U', 0.113), 'legendre': ('U', 0.347), 'memory': ('Z', 0.452)},
         'ectrans-lam': {'transform': ('Z', 0.318)},
         'cloudsc': {'columns': ('U', 0.0413), 'blocks': ('U', 0.00217)}}
ROWS = [
    ('ectrans-global', 'T159-O80-f1', dict(T=159, N=80, OCTAHEDRAL=1, NLEV=1, NFLD=1), 1, 'fit'),
    ('ectrans-global', 'T159-O80-f50', dict(T=159, N=80, OCTAHEDRAL=1, NLEV=1, NFLD=50), 1, 'fit'),
    ('ectrans-global', 'T79-O80-f10', dict(T=79, N=80, OCTAHEDRAL=1, NLEV=1, NFLD=10), 1, 'fit'),
    ('ectrans-global', 'T255-O128-f1', dict(T=255, N=128, OCTAHEDRAL=1, NLEV=1, NFLD=1), 1, 'fit'),
    ('ectrans-global', 'T159-F80-f10', dict(T=159, N=80, OCTAHEDRAL=0, NLEV=1, NFLD=10), 1, 'test'),
    ('ectrans-global', 'T255-O128-f10', dict(T=255, N=128, OCTAHEDRAL=1, NLEV=1, NFLD=10), 2, 'test'),
    ('ectrans-lam', '200x180-f20', dict(NLON=200, NLAT=180, NLEV=1, NFLD=20), 1, 'fit'),
    ('ectrans-lam', '200x180-f640', dict(NLON=200, NLAT=180, NLEV=1, NFLD=640), 1, 'fit'),
    ('ectrans-lam', '400x360-f20', dict(NLON=400, NLAT=360, NLEV=1, NFLD=20), 1, 'fit'),
    ('ectrans-lam', '800x720-f20', dict(NLON=800, NLAT=720, NLEV=1, NFLD=20), 1, 'test'),
    ('cloudsc', '8192-p32', dict(NGPTOT=8192, NPROMA=32), 1, 'fit'),
    ('cloudsc', '8192-p128', dict(NGPTOT=8192, NPROMA=128), 1, 'fit'),
    ('cloudsc', '32768-p32', dict(NGPTOT=32768, NPROMA=32), 1, 'test'),
]
COLS = ['T', 'N', 'octahedral', 'NLON', 'NLAT', 'NLEV', 'NFLD', 'NGPTOT', 'NPROMA']


def with_known(dwarf, loops):
    """the dwarf file with each loop's fitted coefficient set to its known value"""
    s = open(f'dwarfs/{dwarf}.xml').read()
    for name, (att, v) in loops.items():
        i = s.index(f'<loop name="{name}"')
        j = s.index('</loop>', i)
        body = s[i:j]
        k = body.index('<flop' if att == 'U' else '<mop')
        e = body.index('/>', k)
        body = body[:k] + re.sub(f' {att}="[^"]*"', f' {att}="{v}"', body[k:e]) + body[e:]
        s = s[:i] + body + s[j:]
    return s


tmp = tempfile.mkdtemp()
for d, loops in KNOWN.items():
    open(f'{tmp}/{d}.xml', 'w').write(with_known(d, loops))
out = ['# synthetic: fit rows are the model\'s own times with the known coefficients of '
       'tests/data/realcode/README.md; test rows are off by up to 30 %',
       'code,case,' + ','.join(COLS) + ',threads,iters,repeats,cpu_s_min,cpu_s_median,wall_s_min,'
       'wall_s_median,load1,contended,variant,role']
for code, case, p, th, role in ROWS:
    sets = [a for k, v in p.items() for a in ('--set', f'{k}={v}')]
    r = subprocess.run(['./build/dcsim', 'model', '--dwarf', f'{tmp}/{code}.xml', '--cpu',
                        'xeon-gold-6148', '--freq', '2.5', '--cores', str(th), '--energy-form',
                        'none', '--format', 'json'] + sets, capture_output=True, text=True, check=True)
    t = json.loads(r.stdout)['time_s']
    if role == 'test':
        t *= 1 + random.uniform(-0.3, 0.3)
    col = {('octahedral' if k == 'OCTAHEDRAL' else k): str(v) for k, v in p.items()}
    cpu = '%.6g' % (t * th)
    wall = '%.6g' % t
    variant = 'cloudsc-fortran' if code == 'cloudsc' else 'dp-omp'
    out.append(','.join([code, case] + [col.get(c, '') for c in COLS] +
                        [str(th), '10', '3', cpu, cpu, wall, wall, '0.5', '0', variant, role]))
os.makedirs('tests/data/realcode/synthetic', exist_ok=True)
open('tests/data/realcode/synthetic/measurements.csv', 'w').write('\n'.join(out) + '\n')
