dcsim merge no-such-shard.db -o $TMPDIR/all.db
