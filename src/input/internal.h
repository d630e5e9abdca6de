/* input/internal.h — helpers shared by the files of the input module (dwarf.c, hwprofile.c). Not a
 * public header. Ownership: the caller frees the document (dcsim_xml_free) and the strings. */
#ifndef DCSIM_INPUT_INTERNAL_H
#define DCSIM_INPUT_INTERNAL_H

#include "dcsim/error.h"
#include "dcsim/xmlio.h"

/* What a profile or dwarf loader starts with: the document at path (root element root_name,
 * checked against its schema) and malloc'd copies of path and of the root's name=. */
int dcsim_input_open(const char *path, const char *root_name, dcsim_xml_doc_t **doc,
                     char **path_copy, char **name_copy, dcsim_error *err);

#endif
