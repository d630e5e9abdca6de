# a Kerncraft machine file (libyaml) into a calibration directory that calibrate cpu turns into a profile
# (the profile names the temporary directory it was made from: its hash in the footer is masked)
dcsim calibrate import-kerncraft tests/data/calibration/kerncraft/HaswellEP_E5-2697v3.yml -o $TMPDIR/kc | sed "s|$TMPDIR|TMP|" && head -5 $TMPDIR/kc/L3.csv && dcsim calibrate cpu $TMPDIR/kc -o $TMPDIR/kc.xml && dcsim model --dwarf bifft --case 200x180_20 --cpu $TMPDIR/kc.xml --energy-form none --cores 14 | sed -e "s|$TMPDIR|TMP|" -e "s|sha256 [0-9a-f]\{64\}  kc.xml|sha256 SHA256  kc.xml|"
