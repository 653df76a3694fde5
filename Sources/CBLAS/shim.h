// Kinetic's view of OpenBLAS: the declarations of the CBLAS interface and the OpenBLAS
// runtime controls, for the function types of the routines loaded at run time.
#ifndef KINETIC_CBLAS_SHIM_H
#define KINETIC_CBLAS_SHIM_H
#include <cblas.h>
#endif
