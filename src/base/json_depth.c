/* See json_depth.h. */
#include "base/json_depth.h"

bool gn_json_too_deep(const char *s, size_t n, unsigned max, size_t *at)
{
    unsigned depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (in_string) {
            if (ch == '\\')
                i++; /* an escaped character, a quote among them */
            else if (ch == '"')
                in_string = false;
        } else if (ch == '"') {
            in_string = true;
        } else if (ch == '[' || ch == '{') {
            if (++depth > max) {
                *at = i;
                return true;
            }
        } else if ((ch == ']' || ch == '}') && depth) {
            depth--;
        }
    }
    return false;
}
