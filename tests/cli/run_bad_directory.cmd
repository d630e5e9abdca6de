mkdir $TMPDIR/d.xml && cd $TMPDIR && dcsim run d.xml; dcsim validate d.xml
