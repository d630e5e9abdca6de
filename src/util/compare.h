/* util/compare.h — the qsort comparators of plain values, written once (ascending; NaN is not
 * ordered and must not be sorted). Nothing here keeps state. */
#ifndef DCSIM_COMPARE_H
#define DCSIM_COMPARE_H

int dcsim__cmp_double(const void *a, const void *b); /* double */
int dcsim__cmp_u32(const void *a, const void *b);    /* uint32_t */
int dcsim__cmp_uint(const void *a, const void *b);   /* unsigned */

#endif
