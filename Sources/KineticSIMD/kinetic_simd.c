// The header's vector helpers are static inline; the bucket map is compiled here (the spring
// step in spring_step.c).
#include "kinetic_simd.h"
#include <string.h>

int kinetic_simd_bucket_map64(const unsigned char *indices, int count, unsigned char *map) {
    // map[j] = #{k : j_k <= j} is a step function of j for sorted j_k: k + 1 from j_k on.
    // Each index writes its value over the 64 bytes from j_k, later indices over earlier
    // ones (up to 63 bytes past the map: the caller's slack).
    memset(map, 0, 64);
    int most = 0, run = 0;
    for (int k = 0; k < count; k++) {
        memset(map + indices[k], k + 1, 64);
        // The longest run of equal indices: the most nodes in one bucket.
        run = k > 0 && indices[k] == indices[k - 1] ? run + 1 : 1;
        most = run > most ? run : most;
    }
    return most;
}
