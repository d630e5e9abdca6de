/* test_xmlmsg.c — libxml2's schema errors in plain words (util/xmlmsg.h). The inputs are the
 * messages libxml2 2.9 gives for the bad files of tests/data/validate and tests/data/bad. */
#include "util/xmlmsg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/lib.h"

#include "check.h"

static void check_plain(const char *libxml, const char *want) {
  char *out = dcsim__xml_plain_message(libxml);
  CHECK(out != NULL);
  CHECK_STR(out ? out : "", want);
  free(out);
}

/* every prefix of every form, and values holding quotes, give some terminated text (no overrun:
 * the ASan build runs this) */
static void check_robust(void) {
  static const char *const forms[] = {
    "Element 'a', attribute 'b': [facet 'enumeration'] The value 'x'y' is not an element of the "
    "set {'x', 'y''}.",
    "Element 'a', attribute 'b': [facet 'minLength'] The value ''' has a length of '1'; this "
    "underruns the allowed minimum length of '3'.",
    "Element 'a': This element is not expected. Expected is one of ( b, c, d ).",
    "Element 'a': 'v' is not a valid value of the local atomic type.",
    "Element ''': [facet 'maxInclusive'] The value '' is greater than the maximum value allowed.",
  };
  int ok = 1;
  for (size_t f = 0; f < sizeof forms / sizeof *forms; f++)
    for (size_t n = 0; n <= strlen(forms[f]); n++) {
      char in[512];
      snprintf(in, sizeof in, "%.*s", (int)n, forms[f]);
      char *out = dcsim__xml_plain_message(in);
      ok &= out != NULL && strlen(out) < 1024;
      free(out);
    }
  CHECK(ok);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  check_robust();
  check_plain(
      "Element 'task', attribute 'device': [facet 'enumeration'] The value 'cpux' is not "
      "an element of the set {'cpu', 'gpu', 'any'}.\n",
      "<task device=\"cpux\">: expected one of cpu, gpu, any (did you mean cpu?)");
  check_plain(
      "Element 'steps', attribute 'overlap': [facet 'enumeration'] The value 'maybe' is "
      "not an element of the set {'true', 'false'}.",
      "<steps overlap=\"maybe\">: expected one of true, false");
  check_plain(
      "Element 'workflow', attribute 'name': [facet 'pattern'] The value '' is not "
      "accepted by the pattern '[A-Za-z0-9_.:>+\\-]+'.",
      "<workflow name=\"\">: name is empty; expected a name: letters, digits and _ . : > + "
      "- (at least one)");
  check_plain(
      "Element 'set', attribute 'value': [facet 'pattern'] The value 'NaN' is not accepted "
      "by the pattern '\\+?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+\\-]?[0-9]+)?'.",
      "<set value=\"NaN\">: expected a finite, non-negative number");
  check_plain(
      "Element 'x', attribute 'a': [facet 'pattern'] The value 'q' is not accepted by the "
      "pattern '[0-9]{4}'.",
      "<x a=\"q\">: a does not have the expected form (the pattern [0-9]{4})");
  check_plain(
      "Element 'workflow', attribute 'source': [facet 'minLength'] The value 'ab' has a "
      "length of '2'; this underruns the allowed minimum length of '3'.",
      "<workflow source=\"ab\">: source has 2 characters; expected at least 3");
  check_plain(
      "Element 'task', attribute 'platform': [facet 'minLength'] The value '' has a length "
      "of '0'; this underruns the allowed minimum length of '1'.",
      "<task platform=\"\">: platform is empty; expected at least 1 characters");
  check_plain(
      "Element 'x', attribute 'n': [facet 'maxInclusive'] The value '9' is greater than "
      "the maximum value allowed ('8').",
      "<x n=\"9\">: expected at most 8");
  check_plain(
      "Element 'x', attribute 'n': [facet 'minExclusive'] The value '0' must be greater "
      "than '0'.",
      "<x n=\"0\">: expected more than 0");
  check_plain(
      "Element 'steps', attribute 'count': '0' is not a valid value of the atomic type "
      "'xs:positiveInteger'.",
      "<steps count=\"0\">: expected a whole number of at least 1");
  check_plain("Element 'f': 'x' is not a valid value of the atomic type 'xs:double'.",
              "<f> value 'x': expected a number");
  check_plain("Element 'workflow': The attribute 'source' is required but missing.",
              "<workflow>: the attribute source is missing (it is required)");
  check_plain("Element 'workflow', attribute 'colour': The attribute 'colour' is not allowed.",
              "<workflow>: unknown attribute colour");
  check_plain("Element 'tsk': This element is not expected. Expected is ( task ).",
              "<tsk>: not allowed here; expected <task>");
  check_plain(
      "Element 'lop': This element is not expected. Expected is one of ( loop, kernel, "
      "comm ).",
      "<lop>: not allowed here; expected one of <loop>, <kernel>, <comm> (did you mean "
      "<loop>?)");
  check_plain("Element 'steps': Missing child element(s). Expected is ( task ).",
              "<steps>: <task> is missing (required here)");
  check_plain(
      "Element 'workflow': Character content other than whitespace is not allowed "
      "because the content type is 'element-only'.",
      "<workflow>: holds text, but only elements belong there");
  check_plain(
      "Element 'workflw': No matching global declaration available for the validation "
      "root.",
      "<workflw>: not a dcsim input (unknown root element)");
  /* anything else stays as libxml2 wrote it */
  check_plain("Opening and ending tag mismatch: param line 5 and parameters\n",
              "Opening and ending tag mismatch: param line 5 and parameters");
  check_plain("Element 'x': Some new message.", "Element 'x': Some new message.");
  /* a long name is translated whole, not cut (it was kept as libxml2 wrote it over 127 bytes) */
  char longname[301], libxml[512], want[512];
  memset(longname, 'n', 300);
  longname[300] = '\0';
  snprintf(libxml, sizeof libxml, "Element '%s': The attribute 'source' is required but missing.",
           longname);
  snprintf(want, sizeof want, "<%s>: the attribute source is missing (it is required)", longname);
  check_plain(libxml, want);
  /* the parser's size limit in dcsim's words */
  check_plain("Huge input lookup, use XML_PARSE_HUGE option\n",
              "Huge input lookup, (a limit of dcsim's XML reader)");
  CHECK_DONE();
}
