dcsim run /dev/zero; dcsim validate /dev/null
