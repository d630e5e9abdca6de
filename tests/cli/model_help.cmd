dcsim model --help
