seq 5000 | sed 's/.*/; Key&: value/' | gzip > $TMPDIR/h.swf.gz; cd $TMPDIR && dcsim run h.swf.gz
