// include/gnomon.h compiled as C++11: the public header must not depend on C-only syntax.
#include "gnomon.h"

extern "C++" int gn_header_check_cxx();
int gn_header_check_cxx()
{
    gn_renderer_desc d = {};
    d.width = 16;
    return static_cast<int>(d.width) + static_cast<int>(GN_OK);
}
