# a declared encoding other than UTF-8 is not honoured (found by fuzz_platform): one line of error, nothing from libxml2's converters on stderr
DCSIM_DATA=. dcsim validate tests/data/bad/encoding-iso2022.xml
