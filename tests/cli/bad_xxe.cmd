# external entities (file and network) and entity bombs are refused before anything is read, in any encoding: UTF-8 (the DOCTYPE), EBCDIC (read as UTF-8, as every input), UTF-16 (a NUL byte)
for f in xxe xxe-ebcdic billion-laughs-utf16; do DCSIM_DATA=. dcsim validate tests/data/bad/$f.xml; echo "exit $?"; done
