# a job line padded past 1024 bytes (issue 35: gzip members of 61-KB lines inflated 15 MB into 9.2 GB, read for 59 s): refused at its line
{ printf '; MaxNodes: 4\n'; printf '1 0 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1%2000s\n' ''; } | gzip > $TMPDIR/p.swf.gz; cd $TMPDIR && dcsim run p.swf.gz; dcsim validate p.swf.gz
