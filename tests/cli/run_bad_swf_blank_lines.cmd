yes '' | head -n 1000001 | gzip > $TMPDIR/b.swf.gz; cd $TMPDIR && dcsim run b.swf.gz
