printf '; MaxNodes: 4\n; MaxProcs: 4\n    1      0  -1   100   1  -1 -1   1   100 -1 3000000000 1 1 1 1 -1 -1 -1\n' > $TMPDIR/s.swf; cd $TMPDIR && dcsim run s.swf
