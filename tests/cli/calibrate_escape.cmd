# issue 35: text from the bench CSV (device_name), --name, --source and the input path reaches the
# profile only XML-escaped: the injected element is text, the profile validates and round-trips
D=tests/data/gpubench; mkdir "$TMPDIR/a&b<c>" && sed 's/^device_name,,.*/device_name,,x" source="pwn"><injected\/><x a=",/' $D/gtx970-bench.csv > "$TMPDIR/a&b<c>/in--.csv"
dcsim calibrate gpu "$TMPDIR/a&b<c>/in--.csv" --name 'gtx.970:a>b' -o $TMPDIR/p.xml --quiet; echo "exit $?"; sed "s|$TMPDIR|TMP|" $TMPDIR/p.xml | head -3; dcsim validate $TMPDIR/p.xml | sed "s|$TMPDIR|TMP|"; xmllint --xpath 'string(/gpu-profile/@model)' $TMPDIR/p.xml; echo; xmllint --xpath 'string(/gpu-profile/@name)' $TMPDIR/p.xml; echo; xmllint --xpath 'count(//injected)' $TMPDIR/p.xml; echo
# calibrate energy: -o written (atomically), --source used, both escaped
dcsim calibrate energy tests/data/calib/energy-bifft.csv --cpu xeon-e5-2697v3 --method endpoints --quiet -o $TMPDIR/e.xml --source 'rig <7> & "B"'; echo "exit $?"; cat $TMPDIR/e.xml; xmllint --xpath 'string(//@source)' <(echo "<r>$(cat $TMPDIR/e.xml)</r>"); echo
# a --name that no profile can hold is refused before anything is read
dcsim calibrate gpu $D/gtx970-bench.csv --name 'n"<&>'; echo "exit $?"
# an option a calibration does not read is refused, not ignored
dcsim calibrate cpu calibration/xeon-e5-2697v3 --method lad; echo "exit $?"
dcsim calibrate energy tests/data/calib/energy-bifft.csv --cpu xeon-e5-2697v3 --dwarf bifft; echo "exit $?"
dcsim calibrate gpu $D/gtx970-bench.csv --budget 3; echo "exit $?"
dcsim calibrate sampling xeon-e5-2697v3 -o x.xml; echo "exit $?"
