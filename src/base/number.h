/* Decimal numbers in text files (a map's entities, shader scripts), read as C's strtod reads
 * them in the "C" locale but written out, so that the user's locale (a decimal comma) cannot
 * change what a file means. */
#ifndef GN_BASE_NUMBER_H
#define GN_BASE_NUMBER_H

/* The number at s (no leading space): an optional sign, digits, an optional fraction, an
 * optional exponent with at least one digit; finite and within float's range (what %g writes of
 * a float reads back). Returns the end of the number, or NULL when there is none. */
const char *gn_parse_float(const char *s, const char *end, float *out);

#endif
