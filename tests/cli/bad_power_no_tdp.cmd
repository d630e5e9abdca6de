# a spec-only power model missing what it needs (core-w, or a TDP to derive it from): one error naming the file and line
DCSIM_DATA=. dcsim validate tests/data/bad/cpu-power-no-tdp.xml
