mkfifo $TMPDIR/f.xml && cd $TMPDIR && dcsim run f.xml; dcsim validate f.xml
