// Atomics for Kinetic's values that are published once: a curve's solve table (built at its
// 65th evaluation; read on every evaluation by the inline peek) and batch table (built once its
// batch calls pass 8,192 x), both then shared by every thread, and the flag that says OpenBLAS's
// loading was tried; the relaxed counters (the live solve tables' bytes, a curve's batch x) and
// the tally of a curve's evaluations. Swift's `Synchronization.Atomic` needs macOS 15 / iOS 18,
// above the package's deployment targets (macOS 13, iOS 16, tvOS 16, visionOS 1); these C
// functions (kinetic_atomic.c, out of line, so that ThreadSanitizer builds instrument them)
// compile to the same instructions on every platform.
#ifndef KINETIC_ATOMIC_H
#define KINETIC_ATOMIC_H

#include <stdbool.h>
#include <stdint.h>

/// *slot, read with acquire ordering (NULL until something is published).
void *kinetic_atomic_load_pointer(void *const *slot);

/// *slot, read with acquire ordering, inline: for the evaluation path, which reads a curve's
/// solve table on every call. A ThreadSanitizer build calls the out-of-line version instead,
/// which it instruments.
static inline void *kinetic_atomic_peek_pointer(void *const *slot) {
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
    return kinetic_atomic_load_pointer(slot);
#endif
#endif
#if defined(__SANITIZE_THREAD__)
    return kinetic_atomic_load_pointer(slot);
#else
    return __atomic_load_n((void **)slot, __ATOMIC_ACQUIRE);
#endif
}

/// Adds `n` to the pointer-sized counter at `counter` (relaxed ordering) and returns the new
/// count. Only these functions touch the counter's memory.
uintptr_t kinetic_atomic_count(void *counter, uintptr_t n);

/// Adds `n` to the pointer-sized tally at `counter` with a relaxed load and a relaxed store
/// (not a read-modify-write: no locked instruction, no fence), and returns the new tally,
/// inline: for a count that may lose an increment when threads race on it (a curve's
/// evaluation count, which only decides when its table is built). A ThreadSanitizer build
/// calls the out-of-line version instead, which it instruments.
uintptr_t kinetic_atomic_tally_out_of_line(void *counter, uintptr_t n);
static inline uintptr_t kinetic_atomic_tally(void *counter, uintptr_t n) {
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
    return kinetic_atomic_tally_out_of_line(counter, n);
#endif
#endif
#if defined(__SANITIZE_THREAD__)
    return kinetic_atomic_tally_out_of_line(counter, n);
#else
    uintptr_t total = __atomic_load_n((uintptr_t *)counter, __ATOMIC_RELAXED) + n;
    __atomic_store_n((uintptr_t *)counter, total, __ATOMIC_RELAXED);
    return total;
#endif
}

/// Publishes `desired` in *slot if *slot is NULL (acquire-release); returns NULL when it did,
/// else the pointer another thread published first (read with acquire ordering).
void *kinetic_atomic_publish_pointer(void **slot, void *desired);

/// *flag, read with acquire ordering.
bool kinetic_atomic_load_flag(const bool *flag);

/// Sets *flag to true with release ordering.
void kinetic_atomic_set_flag(bool *flag);

#endif
