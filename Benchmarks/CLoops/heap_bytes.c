/* Heap bytes in use, for the memory-per-curve benchmark (CurveScaleBenchmarks.swift). */
#include "c_loops.h"

#include <stdlib.h> /* defines __GLIBC__ on glibc */

#if defined(__linux__) && defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

long long cl_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)info.uordblks;
}
#else
long long cl_heap_bytes_in_use(void) {
    return -1;
}
#endif
