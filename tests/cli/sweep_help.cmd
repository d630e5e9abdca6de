dcsim sweep --help
