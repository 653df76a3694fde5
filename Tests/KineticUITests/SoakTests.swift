import KineticPlatform
import Foundation
import Kinetic
import KineticUI
import XCTest
import TestSupport

/// The soak test (issue 16): curves, springs, batch stores and animators are created and
/// dropped in a loop for `KINETIC_SOAK_SECONDS` seconds; resident memory at the end must be
/// within 5 % of resident memory after the first 10 seconds (the warm-up: lazily built
/// tables, malloc arenas, the runtime's caches). Skipped unless `KINETIC_SOAK_SECONDS` is
/// set, so `make test` stays fast; `make soak` runs it for 120 s (with the C soak program)
/// and writes the samples to `KINETIC_SOAK_CSV` (columns elapsed_s, rss_kib, rss_anon_kib,
/// iterations, part), one row about every second.
@MainActor
final class SoakTests: XCTestCase {
    /// The allowed growth of resident memory from the 10-second figure to the end.
    static let allowedGrowth = 0.05
    /// The warm-up after which the reference figure is taken, seconds.
    static let warmUp = 10.0

    func testCreateAndDropEverythingInALoop() async throws {
        let env = ProcessInfo.processInfo.environment
        guard let text = env["KINETIC_SOAK_SECONDS"], let seconds = Double(text), seconds > 0 else {
            throw XCTSkip("set KINETIC_SOAK_SECONDS (e.g. 120) to run the soak test (`make soak`)")
        }
        let csvPath = env["KINETIC_SOAK_CSV"]
        let savedHandler = Diagnostics.handler
        Diagnostics.handler = { _ in }  // animators released while paused are reported; not printed
        defer { Diagnostics.handler = savedHandler }

        var random = SeededRandom(seed: 16)
        var samples: [SoakSample] = []
        let start = SoakMemory.now()
        var iterations = 0
        var nextSample = 0.0
        var reference: SoakSample?
        var checksum = 0.0
        while true {
            let elapsed = SoakMemory.now() - start
            if elapsed >= nextSample || elapsed >= seconds {
                let sample = SoakSample(elapsed: elapsed, rssKiB: SoakMemory.residentKiB(),
                                        anonKiB: SoakMemory.anonymousKiB(), iterations: iterations)
                samples.append(sample)
                if reference == nil && elapsed >= Self.warmUp { reference = sample }
                nextSample += 1
                if elapsed >= seconds { break }
            }
            checksum += try curves(&random)
            checksum += try springs(&random)
            checksum += try stores(&random)
            checksum += try animators(&random, iteration: iterations)
            iterations += 1
        }
        XCTAssertTrue(checksum.isFinite, "every result of the loop is finite")
        let last = samples[samples.count - 1]
        // A run shorter than the warm-up compares with its first sample after the start.
        let base = reference ?? samples[min(1, samples.count - 1)]
        let ratio = Double(last.rssKiB) / Double(base.rssKiB)
        if let csvPath { try SoakSample.write(samples, part: "swift", to: csvPath) }
        print(String(format: "soak swift: %.0f s, %d iterations; RSS %d KiB after %.0f s, %d KiB at the end "
                     + "(ratio %.4f, limit %.2f); anonymous %d KiB -> %d KiB",
                     last.elapsed, last.iterations, base.rssKiB, base.elapsed, last.rssKiB, ratio,
                     1 + Self.allowedGrowth, base.anonKiB, last.anonKiB))
        XCTAssertLessThanOrEqual(ratio, 1 + Self.allowedGrowth,
                                 "RSS grew from \(base.rssKiB) KiB (\(base.elapsed) s) to \(last.rssKiB) KiB")
    }

    // MARK: The parts of one iteration

    /// Random curves (control points with overshoot), each evaluated alone and in batches of
    /// 2,048 until its batch x pass 8,192 (so that the curve builds its solve table and its
    /// batch table, or declines the latter), then dropped.
    private func curves(_ random: inout SeededRandom) throws -> Double {
        var sum = 0.0
        let xs = (0 ..< 2048).map { Double($0) / 2047 }
        for _ in 0 ..< 4 {
            let curve = try CubicBezier(random.unit(), random.uniform(-1, 2), random.unit(), random.uniform(-1, 2))
            sum += curve.value(at: random.unit()) + curve.slope(at: 0.5).magnitude.isFinite.double
            let values = curve.values(at: xs)
            sum += values[1024]
            var buffer = xs
            for _ in 0 ..< 4 {  // 2,048 + 4 × 2,048 batch x: past the batch table's rule
                buffer.withUnsafeMutableBufferPointer { curve.evaluate(inPlace: $0) }
                sum += buffer[2047]
                buffer = xs
            }
        }
        return sum
    }

    /// Springs from every parameterisation, their closed forms, settling, Φ and a group step.
    private func springs(_ random: inout SeededRandom) throws -> Double {
        let ratio = random.uniform(0.05, 2.5)
        let made = [
            try Spring(mass: random.uniform(0.5, 2), stiffness: random.uniform(10, 500),
                       damping: random.uniform(0, 40)),
            try Spring(dampingRatio: ratio, response: random.uniform(0.1, 2)),
            try Spring(duration: random.uniform(0.1, 2), bounce: random.uniform(-0.9, 0.9)),
            try Spring(settlingDuration: random.uniform(0.2, 3), dampingRatio: ratio),
        ]
        var sum = 0.0
        for spring in made {
            let v0 = random.uniform(-5, 5)
            sum += spring.value(at: 0.3, initialVelocity: v0) + spring.velocity(at: 0.3, initialVelocity: v0)
            let settle = spring.settlingDuration(initialVelocity: v0)
            sum += settle.isFinite ? settle : 0
            sum += spring.dampingRatio + spring.response + spring.bounce
            let group = try SpringGroup(spring: spring, displacements: (0 ..< 64).map { Double($0) },
                                        velocities: [Double](repeating: v0, count: 64))
            for _ in 0 ..< 3 { try group.step(over: 1.0 / 60) }
            sum += group.displacement(at: 63)
        }
        return sum
    }

    /// A store with every kind of entry, ticked, churned (entries removed and added), dropped.
    private func stores(_ random: inout SeededRandom) throws -> Double {
        let store = BatchStore()
        let n = 256
        let from = (0 ..< n).map { Double($0) }, to = (0 ..< n).map { Double($0) * 2 + 1 }
        let group = try store.addGroup(from: from, to: to, progress: 0.25)
        let lanes = try store.addLanes(from: from, to: to, progress: (0 ..< n).map { Double($0) / Double(n) })
        let easing = try CubicBezier(random.unit(), random.uniform(-0.5, 1.5), random.unit(), 1)
        let tracks = try (0 ..< 32).map { t in
            try KeyframeTrack<Double>(keyTimes: [0, 0.3, 0.7, 1], values: [0, Double(t), -Double(t), 1],
                                      interpolations: [.linear, .eased(easing), .catmullRom])
        }
        let keyframes = try store.addKeyframes(tracks, progress: 0)
        let spring = try Spring(dampingRatio: random.uniform(0.2, 1.5), response: 0.5)
        let springs = try store.addSprings(spring, targets: to, displacements: from)
        for frame in 1 ... 5 {
            try store.setProgress(Double(frame) / 5, for: group)
            try store.setProgress(Double(frame) / 5, for: keyframes)
            try store.tick(over: 1.0 / 60)
        }
        try store.remove(lanes)
        let more = try store.addSprings(spring, targets: from)
        try store.tick(over: 1.0 / 120)
        let sum = try store.value(of: springs, lane: n - 1) + store.value(of: more, lane: 0)
            + store.value(of: keyframes, lane: 31)
        try store.remove(group)
        return sum
    }

    /// An engine with views and animators driven through start, pause, scrub, reverse,
    /// continue, stop and finish; every other engine is dropped while its animators run.
    private func animators(_ random: inout SeededRandom, iteration: Int) throws -> Double {
        let engine = AnimationEngine()
        let clock = engine.clock
        let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let views = (0 ..< 8).map { i in View(frame: Rect(x: Double(i) * 10, y: 0, width: 10, height: 10)) }
        for v in views { root.addSubview(v) }
        var completions = 0
        let cubic = try PropertyAnimator(duration: 0.5, curve: .easeInOut, engine: engine) {
            views[0].center = Point(x: 200, y: 100)
            views[1].alpha = 0.2
        }
        cubic.addCompletion { _ in completions += 1 }
        let spring = try PropertyAnimator(duration: 0.8, dampingRatio: random.uniform(0.3, 1), engine: engine) {
            views[2].bounds = Rect(x: 0, y: 0, width: 60, height: 30)
            views[3].center = Point(x: -40, y: 20)
        }
        spring.addCompletion { _ in completions += 1 }
        let custom = try PropertyAnimator(duration: 0.4, controlPoint1: Point(x: random.unit(), y: random.uniform(-1, 2)),
                                          controlPoint2: Point(x: random.unit(), y: 1), engine: engine) {
            views[4].backgroundColor = Color(red: 0.9, green: 0.1, blue: 0.3)
            views[5].center = Point(x: 10, y: 300)
        }
        try cubic.startAnimation()
        try spring.startAnimation(afterDelay: 0.02)
        try custom.startAnimation()
        try View.animate(withDuration: 0.3, engine: engine, animations: { views[6].alpha = 0 },
                         completion: { _ in completions += 1 })
        var t = 0.0
        func frames(_ count: Int) throws {
            for _ in 0 ..< count { t += 1.0 / 60; try clock.advance(to: t) }
        }
        try frames(3)
        // Scrub: pause, set the fraction, reverse, continue with other timing.
        try cubic.pauseAnimation()
        try cubic.setFractionComplete(random.unit())
        cubic.isReversed = true
        try cubic.continueAnimation(withTimingParameters: SpringTimingParameters(dampingRatio: 0.7), durationFactor: 0.5)
        try frames(2)
        // Stop and finish at the current values.
        try custom.stopAnimation(false)
        try custom.finishAnimation(at: .current)
        // Inactive again: new animations, started once more.
        try custom.addAnimations { views[7].alpha = 0.5 }
        try custom.startAnimation()
        if iteration % 2 == 0 {
            // Run to the end: everything completes.
            try frames(70)
        } else {
            // Drop the engine (and its views and animators) while the spring and the block run.
            try frames(1)
        }
        return views[0].presentation.center.x + views[3].presentation.center.y + Double(completions)
    }
}

// MARK: - Support

/// One memory sample of a soak run.
struct SoakSample {
    var elapsed: Double
    var rssKiB: Int
    var anonKiB: Int
    var iterations: Int

    /// Writes the samples as CSV (header elapsed_s,rss_kib,rss_anon_kib,iterations,part).
    static func write(_ samples: [SoakSample], part: String, to path: String) throws {
        var text = "elapsed_s,rss_kib,rss_anon_kib,iterations,part\n"
        for s in samples {
            text += String(format: "%.3f,%d,%d,%d,%@\n", s.elapsed, s.rssKiB, s.anonKiB, s.iterations, part)
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// Resident memory of this process (Linux: /proc/self/statm and /proc/self/status).
enum SoakMemory {
    /// Monotonic seconds.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Resident set size in KiB (the second field of /proc/self/statm, in pages).
    static func residentKiB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let resident = Int(fields[1]) else { return 0 }
        return resident * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }

    /// The anonymous part of resident memory in KiB (RssAnon in /proc/self/status: the heap
    /// and other private memory, without mapped files); 0 where there is no such line.
    static func anonymousKiB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("RssAnon:") {
            let fields = line.dropFirst("RssAnon:".count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            return fields.first.flatMap { Int($0) } ?? 0
        }
        return 0
    }
}

private extension Bool {
    var double: Double { self ? 1 : 0 }
}
