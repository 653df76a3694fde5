// kinetic_header_test.cpp: kinetic.h from C++ (C++11 and C++17, -Wold-style-cast), compiled
// (not run) by `make test-c`: everything kinetic_header_test.c does, plus the handle arrays a
// C++ program holds (std::vector<kn_bezier *>::data(), std::array) and KN_ENTRY_NONE in a
// constant expression.
#include <array>
#include <vector>

#include "kinetic_header_test.c"

static_assert(KN_ENTRY_NONE == 0, "KN_ENTRY_NONE is the entry 0");
static_assert(sizeof(kn_spring_properties) == 7 * sizeof(double), "seven doubles, no padding");

int kinetic_header_test_cpp();

int kinetic_header_test_cpp() {
    kn_store *store = nullptr;
    kn_entry entry = KN_ENTRY_NONE;
    std::vector<kn_bezier *> easings(2, nullptr);
    std::array<kn_bezier *, 2> more = {{nullptr, nullptr}};
    const double key_times[3] = {0, 0.5, 1};
    const double values[3] = {0, 1, 2};
    const int32_t interpolations[2] = {KN_INTERPOLATION_EASED, KN_INTERPOLATION_EASED};
    kn_status status = kn_bezier_create_preset(KN_BEZIER_EASE, &easings[0]);
    status |= kn_bezier_create_preset(KN_BEZIER_EASE_OUT, &more[1]);
    easings[1] = more[1];
    more[0] = easings[0];
    status |= kn_store_create(&store);
    status |= kn_store_add_keyframes(store, key_times, 3, values, 1, interpolations, easings.data(), 0.5, &entry);
    status |= kn_store_add_keyframes(store, key_times, 3, values, 1, interpolations, more.data(), 0.5, &entry);
    kn_store_destroy(store);
    for (kn_bezier *curve : easings) kn_bezier_destroy(curve);
    return status == KN_OK && entry != KN_ENTRY_NONE ? kinetic_header_test() : 1;
}
