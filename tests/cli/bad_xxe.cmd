# external entities (file and network) and entity bombs are refused before anything is read, in any encoding: UTF-8, EBCDIC (the parser stops at the DOCTYPE), UTF-16 (a NUL byte)
for f in xxe xxe-ebcdic billion-laughs-utf16; do DCSIM_DATA=. dcsim validate tests/data/bad/$f.xml; echo "exit $?"; done
