// kinetic_test_cpp.cpp: kinetic.h used the way a C++ engine uses it, built against the
// installed header and library (pkg-config) and run by `make test-c` with the Swift toolchain
// out of reach. kinetic_header_test.cpp only compiles the header as C++; this runs it:
// - handles owned by std::unique_ptr with the library's destroy functions;
// - curves and springs bit for bit the Swift API's (the CLI's reference CSVs, as kinetic_test.c
//   reads them), batches from std::vector, and the values checked against an independent
//   long double solve of x(t) = x on random curves;
// - a keyframe entry whose easings come from std::vector<kn_bezier *>::data() and std::array,
//   with no cast;
// - the engine: a run over lanes held in std::vectors, its events and its illegal calls;
// - std::thread: one curve and one spring shared by four threads (same bits), and the last
//   error message per thread.
//
//   kinetic_test_cpp BEZIER_CSV SPRING_CSV
//
// Prints one line per failed check and ends with "kinetic_test_cpp: N passed, M failed";
// exits 1 on any failure.
#include <kinetic.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

int passed = 0, failed = 0;

void check(bool condition, const char *what, int line) {
    if (condition) {
        ++passed;
    } else {
        ++failed;
        std::fprintf(stderr, "FAIL line %d: %s\n", line, what);
    }
}

#define CHECK(condition) check((condition), #condition, __LINE__)
#define OK(call) check((call) == KN_OK, #call " == KN_OK", __LINE__)
#define EXPECT(status, call) check((call) == (status), #call " == " #status, __LINE__)

bool same_bits(double a, double b) {
    std::uint64_t x = 0, y = 0;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    return x == y;
}

// Handles owned as a C++ program owns them.
struct BezierDeleter {
    void operator()(kn_bezier *curve) const { kn_bezier_destroy(curve); }
};
struct SpringDeleter {
    void operator()(kn_spring *spring) const { kn_spring_destroy(spring); }
};
struct StoreDeleter {
    void operator()(kn_store *store) const { kn_store_destroy(store); }
};
struct EngineDeleter {
    void operator()(kn_engine *engine) const { kn_engine_destroy(engine); }
};
using Bezier = std::unique_ptr<kn_bezier, BezierDeleter>;
using SpringHandle = std::unique_ptr<kn_spring, SpringDeleter>;
using Store = std::unique_ptr<kn_store, StoreDeleter>;
using Engine = std::unique_ptr<kn_engine, EngineDeleter>;

Bezier make_bezier(double x1, double y1, double x2, double y2) {
    kn_bezier *curve = nullptr;
    OK(kn_bezier_create(x1, y1, x2, y2, &curve));
    return Bezier(curve);
}

// The calling thread's last error message, through the header's length protocol: ask for
// the length with a NULL buffer, then read it whole.
std::string last_error() {
    std::size_t length = 0;
    if (kn_last_error_message(nullptr, 0, &length) != KN_OK && length == 0) return std::string();
    std::vector<char> buffer(length + 1, '\0');
    if (kn_last_error_message(buffer.data(), buffer.size(), &length) != KN_OK) return std::string("(truncated)");
    return std::string(buffer.data(), length);
}

bool error_mentions(const std::string &needle) {
    const std::string message = last_error();
    if (message.find(needle) != std::string::npos) return true;
    std::fprintf(stderr, "  last error \"%s\" does not mention \"%s\"\n", message.c_str(), needle.c_str());
    return false;
}

// A CSV of three numeric columns after a header line (the CLI prints each double so that it
// parses back to the same bits).
struct Table {
    std::vector<double> a, b, c;
};

Table read_csv(const char *path) {
    Table table;
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line)) return table;
    while (std::getline(in, line)) {
        std::istringstream row(line);
        std::string field;
        std::array<double, 3> v{{0, 0, 0}};
        for (double &x : v) {
            if (!std::getline(row, field, ',')) return Table();
            x = std::strtod(field.c_str(), nullptr);
        }
        table.a.push_back(v[0]);
        table.b.push_back(v[1]);
        table.c.push_back(v[2]);
    }
    return table;
}

// A small deterministic generator (splitmix64), so that the random curves are the same on
// every run.
struct Random {
    std::uint64_t state;
    double next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        return static_cast<double>(z >> 11) * 0x1p-53;
    }
};

// The eased value at x of the curve, solved independently in long double: bisection on
// x(t) = x (x(t) does not decrease on [0, 1] for x1, x2 in [0, 1]) to the last bit of t.
long double reference_value(long double x1, long double y1, long double x2, long double y2, long double x) {
    auto coordinate = [](long double p1, long double p2, long double t) {
        const long double s = 1 - t;
        return 3 * s * s * t * p1 + 3 * s * t * t * p2 + t * t * t;
    };
    long double lo = 0, hi = 1;
    for (int i = 0; i < 80; ++i) {
        const long double mid = (lo + hi) / 2;
        if (coordinate(x1, x2, mid) < x) lo = mid; else hi = mid;
    }
    return coordinate(y1, y2, (lo + hi) / 2);
}

void test_bezier(const char *csv) {
    const Table reference = read_csv(csv);
    CHECK(reference.a.size() > 100);
    if (reference.a.empty()) return;
    const std::vector<double> &xs = reference.a;
    Bezier curve = make_bezier(0.34, 1.56, 0.64, 1);
    CHECK(curve != nullptr);
    if (!curve) return;

    // Scalar value and slope: the Swift API's bits.
    std::size_t value_mismatches = 0, slope_mismatches = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        double v = NAN, s = NAN;
        OK(kn_bezier_value(curve.get(), xs[i], &v));
        OK(kn_bezier_slope(curve.get(), xs[i], &s));
        value_mismatches += !same_bits(v, reference.b[i]);
        slope_mismatches += !same_bits(s, reference.c[i]);
    }
    CHECK(value_mismatches == 0);
    CHECK(slope_mismatches == 0);

    // A batch from a std::vector (before the batch table: the scalar bits), and in place.
    std::vector<double> out(xs.size());
    OK(kn_bezier_values(curve.get(), xs.data(), out.data(), static_cast<std::int64_t>(xs.size())));
    std::size_t batch_mismatches = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) batch_mismatches += !same_bits(out[i], reference.b[i]);
    CHECK(batch_mismatches == 0);
    std::vector<double> in_place(xs);
    OK(kn_bezier_values(curve.get(), in_place.data(), in_place.data(), static_cast<std::int64_t>(in_place.size())));
    CHECK(in_place == out);

    // Bad input: a status, a message naming the value, nothing written.
    kn_bezier *bad = nullptr;
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_bezier_create(1.5, 0, 0.5, 1, &bad));
    CHECK(bad == nullptr && error_mentions("x1") && error_mentions("1.5"));
    EXPECT(KN_ERR_NOT_FINITE, kn_bezier_create(0.25, NAN, 0.5, 1, &bad));
    CHECK(bad == nullptr && error_mentions("y1"));
    double untouched = 42;
    EXPECT(KN_ERR_NULL_ARGUMENT, kn_bezier_value(nullptr, 0.5, &untouched));
    CHECK(untouched == 42);

    // Accuracy on random curves (x1, x2 in [0, 1], y1, y2 in [-1, 2]) against the long double
    // solve: within 1e-12 · max(1, |y1|, |y2|), as the header says.
    Random random{0x4B494E4554494321ULL};
    std::size_t inaccurate = 0;
    double worst = 0;
    for (int k = 0; k < 300; ++k) {
        const double x1 = random.next(), y1 = 3 * random.next() - 1, x2 = random.next(), y2 = 3 * random.next() - 1;
        Bezier c = make_bezier(x1, y1, x2, y2);
        if (!c) continue;
        const double bound = 1e-12 * std::fmax(1.0, std::fmax(std::fabs(y1), std::fabs(y2)));
        for (int j = 0; j <= 64; ++j) {
            const double x = j == 64 ? random.next() : j / 64.0;
            double v = NAN;
            OK(kn_bezier_value(c.get(), x, &v));
            const double error = static_cast<double>(std::fabs(static_cast<long double>(v) - reference_value(x1, y1, x2, y2, x)));
            worst = std::fmax(worst, error / bound);
            if (!(error <= bound)) ++inaccurate;
        }
    }
    CHECK(inaccurate == 0);
    if (inaccurate != 0) std::fprintf(stderr, "  worst error %.3g of the bound\n", worst);
}

void test_spring(const char *csv) {
    const Table reference = read_csv(csv);
    CHECK(reference.a.size() > 10);
    kn_spring *raw = nullptr;
    OK(kn_spring_create_damping_ratio(0.5, 0.4, &raw));
    SpringHandle spring(raw);
    if (!spring) return;
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < reference.a.size(); ++i) {
        double v = NAN, dv = NAN;
        OK(kn_spring_value(spring.get(), reference.a[i], 2, &v));
        OK(kn_spring_velocity(spring.get(), reference.a[i], 2, &dv));
        mismatches += !same_bits(v, reference.b[i]) || !same_bits(dv, reference.c[i]);
    }
    CHECK(mismatches == 0);

    kn_spring_properties properties{};
    OK(kn_spring_get_properties(spring.get(), &properties));
    CHECK(std::fabs(properties.damping_ratio - 0.5) <= 1e-15 && std::fabs(properties.response - 0.4) <= 1e-15);
    CHECK(properties.mass == 1 && properties.duration == properties.response);

    // A finite velocity whose true position is beyond the range of double: a status naming it.
    kn_spring *soft = nullptr;
    OK(kn_spring_create(1, 1e-6, 0, &soft));
    SpringHandle soft_spring(soft);
    double out = 7;
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_spring_value(soft_spring.get(), 1e3, 1e308, &out));
    CHECK(out == 7 && error_mentions("initial_velocity"));
}

void test_store_keyframes() {
    kn_store *raw = nullptr;
    OK(kn_store_create(&raw));
    Store store(raw);
    Bezier ease = make_bezier(0.25, 0.1, 0.25, 1), ease_out = make_bezier(0, 0, 0.58, 1);
    const double key_times[3] = {0, 0.5, 1};
    const double values[3] = {0, 10, 30};
    const std::int32_t interpolations[2] = {KN_INTERPOLATION_EASED, KN_INTERPOLATION_EASED};
    std::vector<kn_bezier *> easings{ease.get(), ease_out.get()};
    std::array<kn_bezier *, 2> same{{ease.get(), ease_out.get()}};
    kn_entry a = KN_ENTRY_NONE, b = KN_ENTRY_NONE;
    OK(kn_store_add_keyframes(store.get(), key_times, 3, values, 1, interpolations, easings.data(), 0.25, &a));
    OK(kn_store_add_keyframes(store.get(), key_times, 3, values, 1, interpolations, same.data(), 0.75, &b));
    // The store copied the curves: they may go now.
    ease.reset();
    OK(kn_store_tick(store.get(), 0));
    double va = NAN, vb = NAN;
    OK(kn_store_value(store.get(), a, 0, &va));
    OK(kn_store_value(store.get(), b, 0, &vb));
    // Segment 0 at local progress 0.5 eased by `ease`, segment 1 at 0.5 eased by ease-out.
    const double ease_at_half = static_cast<double>(reference_value(0.25, 0.1, 0.25, 1, 0.5));
    const double ease_out_at_half = static_cast<double>(reference_value(0, 0, 0.58, 1, 0.5));
    CHECK(std::fabs(va - 10 * ease_at_half) <= 1e-11);
    CHECK(std::fabs(vb - (10 + 20 * ease_out_at_half)) <= 1e-11);
    OK(kn_store_remove(store.get(), a));
    EXPECT(KN_ERR_STALE_HANDLE, kn_store_value(store.get(), a, 0, &va));
}

void test_engine() {
    kn_engine *raw = nullptr;
    OK(kn_engine_create(&raw));
    Engine engine(raw);
    if (!engine) return;
    const std::vector<double> start{0, 100, -50};
    std::int64_t first = -1;
    OK(kn_engine_add_lanes(engine.get(), start.data(), static_cast<std::int64_t>(start.size()), &first));
    std::vector<std::int64_t> lanes{first, first + 1, first + 2};
    const std::vector<double> targets{10, 0, 50};

    kn_timing linear{};
    linear.kind = KN_TIMING_LINEAR;
    kn_run run = 0;
    OK(kn_engine_run_create(engine.get(), &linear, 2, &run));
    CHECK(run != 0);
    // Illegal while inactive: UIKit's reason as the message, nothing changed.
    EXPECT(KN_ERR_ILLEGAL_STATE, kn_engine_run_stop(engine.get(), run, 1));
    CHECK(error_mentions("stopAnimation"));
    OK(kn_engine_run_add_animations(engine.get(), run, lanes.data(), targets.data(), nullptr,
                                    static_cast<std::int64_t>(lanes.size()), 0));
    OK(kn_engine_run_start(engine.get(), run));
    OK(kn_engine_advance_to(engine.get(), 0.5));
    std::vector<double> shown(lanes.size());
    OK(kn_engine_read(engine.get(), first, static_cast<std::int64_t>(shown.size()), shown.data()));
    std::size_t off = 0;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        off += std::fabs(shown[i] - (start[i] + 0.25 * (targets[i] - start[i]))) > 1e-12;
    }
    CHECK(off == 0);
    std::vector<double> model(lanes.size());
    OK(kn_engine_read_model(engine.get(), first, static_cast<std::int64_t>(model.size()), model.data()));
    CHECK(model == targets);

    // Pause, scrub, and continue with a damped spring to the end.
    OK(kn_engine_run_pause(engine.get(), run));
    OK(kn_engine_run_set_fraction(engine.get(), run, 0.5));
    kn_run_info info{};
    OK(kn_engine_run_info(engine.get(), run, &info));
    CHECK(info.state == KN_RUN_ACTIVE && info.running == 0 && info.fraction_complete == 0.5);
    kn_timing spring{};
    spring.kind = KN_TIMING_DAMPED_SPRING;
    spring.damping_ratio = 0.8;
    OK(kn_engine_run_continue(engine.get(), run, &spring, 0.5));
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_advance_to(engine.get(), 0.25));  // time going back
    CHECK(error_mentions("0.25"));
    OK(kn_engine_advance_to(engine.get(), 10));
    OK(kn_engine_read(engine.get(), first, static_cast<std::int64_t>(shown.size()), shown.data()));
    CHECK(shown == targets);
    kn_event event{};
    std::int32_t has = 0;
    OK(kn_engine_next_event(engine.get(), &event, &has));
    CHECK(has == 1 && event.run == run && event.kind == KN_EVENT_FINISHED && event.position == KN_POSITION_END);
    OK(kn_engine_next_event(engine.get(), &event, &has));
    CHECK(has == 0);
    OK(kn_engine_run_release(engine.get(), run));
    EXPECT(KN_ERR_STALE_HANDLE, kn_engine_run_start(engine.get(), run));
    // A lane range outside the engine's.
    EXPECT(KN_ERR_OUT_OF_RANGE, kn_engine_read(engine.get(), first + 2, 2, shown.data()));
}

void test_threads() {
    Bezier curve = make_bezier(0.1, 0.9, 0.2, 1.3);
    kn_spring *raw = nullptr;
    OK(kn_spring_create_duration(0.5, 0.3, &raw));
    SpringHandle spring(raw);
    if (!curve || !spring) return;
    std::vector<double> xs(4096);
    for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<double>(i) / static_cast<double>(xs.size() - 1);
    auto evaluate = [&](std::vector<double> &values) {
        values.resize(2 * xs.size());
        for (std::size_t i = 0; i < xs.size(); ++i) {
            kn_bezier_value(curve.get(), xs[i], &values[i]);
            kn_spring_value(spring.get(), xs[i], 1, &values[xs.size() + i]);
        }
    };
    std::vector<double> expected;
    evaluate(expected);
    std::array<std::vector<double>, 4> results;
    std::array<std::string, 4> messages;
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < results.size(); ++t) {
        threads.emplace_back([&, t] {
            evaluate(results[t]);
            // Each thread has its own last error.
            kn_bezier *bad = nullptr;
            kn_bezier_create(0.5, 0, 1 + static_cast<double>(t + 1), 1, &bad);
            messages[t] = last_error();
        });
    }
    for (std::thread &thread : threads) thread.join();
    for (std::size_t t = 0; t < results.size(); ++t) {
        std::size_t differing = 0;
        for (std::size_t i = 0; i < expected.size(); ++i) differing += !same_bits(results[t][i], expected[i]);
        CHECK(differing == 0);
        const std::string value = std::to_string(t + 2);
        CHECK(messages[t].find("x2") != std::string::npos && messages[t].find(value) != std::string::npos);
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s BEZIER_CSV SPRING_CSV\n", argv[0]);
        return 2;
    }
    test_bezier(argv[1]);
    test_spring(argv[2]);
    test_store_keyframes();
    test_engine();
    test_threads();
    std::printf("kinetic_test_cpp: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
