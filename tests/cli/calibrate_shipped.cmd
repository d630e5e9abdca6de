# The shipped CPU profiles are exactly what `dcsim calibrate cpu` makes from calibration/<machine>/ (byte for byte).
for m in core-i7-4700eq xeon-e5-2640v3 xeon-e5-2697v3 xeon-gold-6148; do dcsim calibrate cpu calibration/$m -o $TMPDIR/$m.xml && cmp hw-profiles/cpu/$m.xml $TMPDIR/$m.xml && echo "$m: identical"; done
