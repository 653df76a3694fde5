// The header's helpers are static inline; the bucket map is compiled here.
#include "kinetic_simd.h"
#include <string.h>

int kn_bucket_map64(const unsigned char *indices, int count, unsigned char *map) {
    // map[j] = #{k : j_k <= j} is a step function of j for sorted j_k: k + 1 from j_k on.
    // Each index writes its value over the tail from j_k, later indices over earlier ones:
    // four 16-byte stores each, up to 63 bytes past the map (the caller's slack).
    unsigned char value[16];
    memset(value, 0, 16);
    for (int q = 0; q < 4; q++) memcpy(map + 16 * q, value, 16);
    int most = 0, run = 0;
    for (int k = 0; k < count; k++) {
        memset(value, k + 1, 16);
        unsigned char *tail = map + indices[k];
        for (int q = 0; q < 4; q++) memcpy(tail + 16 * q, value, 16);
        // The longest run of equal indices: the most nodes in one bucket.
        run = k > 0 && indices[k] == indices[k - 1] ? run + 1 : 1;
        most = run > most ? run : most;
    }
    return most;
}
