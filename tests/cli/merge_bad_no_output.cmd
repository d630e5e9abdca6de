dcsim merge a.db b.db
