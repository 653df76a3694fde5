// The header's functions are static inline; this file makes KineticSIMD a C target.
#include "kinetic_simd.h"
