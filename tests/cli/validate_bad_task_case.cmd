DCSIM_DATA=. dcsim validate tests/data/validate/bad-task-case.xml
