# dcsim_embed_files(BODY_VAR PREFIX FILE...): appends to the C text in BODY_VAR one NUL-terminated
# array `static const char PREFIX_<i>[]` per FILE, and sets BODY_VAR_TABLE to the rows
# {"NAME", PREFIX_<i>, length} of a table of them (NAME: the file's name). The one way data files are
# built into libdcsim: tools/embed-schemas.cmake and tools/embed-templates.cmake.
function(dcsim_embed_files body_var prefix)
  set(text "${${body_var}}")
  set(rows "")
  set(i 0)
  foreach(f ${ARGN})
    get_filename_component(name ${f} NAME)
    file(READ ${f} hex HEX)
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
    string(APPEND text "static const char ${prefix}_${i}[] = {${hex}0x00};\n")
    string(APPEND rows "  {\"${name}\", ${prefix}_${i}, sizeof ${prefix}_${i} - 1},\n")
    math(EXPR i "${i}+1")
  endforeach()
  set(${body_var} "${text}" PARENT_SCOPE)
  set(${body_var}_TABLE "${rows}" PARENT_SCOPE)
endfunction()
