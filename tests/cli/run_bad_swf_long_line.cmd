head -c 70000 /dev/zero | tr '\0' 1 | gzip > $TMPDIR/l.swf.gz; cd $TMPDIR && dcsim run l.swf.gz
