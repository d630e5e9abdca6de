dcsim merge --help
