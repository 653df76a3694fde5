// Acquire/release atomics for values published once (see include/kinetic_atomic.h).
#include "kinetic_atomic.h"

void *kinetic_atomic_load_pointer(void *const *slot) {
    return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}

void *kinetic_atomic_publish_pointer(void **slot, void *desired) {
    void *expected = 0;
    if (__atomic_compare_exchange_n(slot, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return 0;
    return expected;
}

bool kinetic_atomic_load_flag(const bool *flag) {
    return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

void kinetic_atomic_set_flag(bool *flag) {
    __atomic_store_n(flag, true, __ATOMIC_RELEASE);
}

uintptr_t kinetic_atomic_count(void *counter, uintptr_t n) {
    return __atomic_add_fetch((uintptr_t *)counter, n, __ATOMIC_RELAXED);
}

uintptr_t kinetic_atomic_tally_out_of_line(void *counter, uintptr_t n) {
    uintptr_t total = __atomic_load_n((uintptr_t *)counter, __ATOMIC_RELAXED) + n;
    __atomic_store_n((uintptr_t *)counter, total, __ATOMIC_RELAXED);
    return total;
}
