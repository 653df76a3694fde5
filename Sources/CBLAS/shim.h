// Kinetic's view of OpenBLAS: the CBLAS interface plus the OpenBLAS
// runtime controls (thread count, build configuration).
#ifndef KINETIC_CBLAS_SHIM_H
#define KINETIC_CBLAS_SHIM_H
#include <cblas.h>
#endif
