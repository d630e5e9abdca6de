/* util/xmlmsg.h — libxml2's schema errors in plain words (doc/cli.md, "dcsim validate").
 *
 * libxml2 says what broke which rule of the XSD ("Element 'task', attribute 'device': [facet
 * 'enumeration'] The value 'cpux' is not an element of the set {'cpu', 'gpu', 'any'}."); a user
 * wants the element, what is wrong and what is expected:
 *   <task device="cpux">: expected one of cpu, gpu, any (did you mean cpu?)
 * The common messages are translated (a value outside a set, a pattern of a dcsim type, a length,
 * a bound, a type, a missing or unknown attribute, an element out of place or missing, text where
 * only elements belong, an unknown root); any other message is kept as libxml2 wrote it.
 * Pure string work: no state is kept, no length limit (the pieces are read in place). */
#ifndef DCSIM_XMLMSG_H
#define DCSIM_XMLMSG_H

#include <stddef.h>

/* The plain form of libxml2's message `msg` (trailing blanks and newline ignored; NULL reads as
 * ""), as a malloc'd string the caller frees; NULL when out of memory. */
char *dcsim__xml_plain_message(const char *msg);

#endif
