import Kinetic
import KineticC
import KineticUI
import TestSupport
import XCTest

/// The same seeded random sequences of animator calls through the Swift UIKit layer
/// (`PropertyAnimator` on views) and through the C engine (`kn_engine_*` on lanes laid out
/// as the views' properties: per view its centre x, centre y (vertical) and alpha). After
/// every step the lanes must agree bit for bit with the views' presentation values, the
/// animators' states with the runs', a refused call on one side must be refused on the
/// other, and the completions must come in the same order with the same positions.
@MainActor
final class EngineDifferentialTests: XCTestCase {
    private let viewCount = 3

    /// One random timing, as a UIKit provider and as a `kn_timing`.
    private func timing(_ random: inout SeededRandom, springs: inout [OpaquePointer?]) throws
        -> (provider: any TimingCurveProvider, c: [UInt8]) {
        var t = [UInt8](repeating: 0, count: 72)
        func put<T>(_ value: T, _ offset: Int) {
            withUnsafeBytes(of: value) { bytes in for (k, b) in bytes.enumerated() { t[offset + k] = b } }
        }
        let vx = random.chance(0.5) ? 0 : random.uniform(-3, 3), vy = random.chance(0.5) ? vx : random.uniform(-3, 3)
        put(vx, 56)
        put(vy, 64)
        switch random.next() % 5 {
        case 0:
            put(Int32(1), 0)
            let c = AnimationCurve.allCases[Int(random.next() % 4)]
            let p = CubicTimingParameters(animationCurve: c)
            for (k, v) in [p.curve.x1, p.curve.y1, p.curve.x2, p.curve.y2].enumerated() { put(v, 8 + 8 * k) }
            return (p, t)
        case 1:
            put(Int32(1), 0)
            let x1 = random.unit(), y1 = random.uniform(-1, 2), x2 = random.unit(), y2 = random.uniform(-1, 2)
            for (k, v) in [x1, y1, x2, y2].enumerated() { put(v, 8 + 8 * k) }
            return (try CubicTimingParameters(controlPoint1: Point(x: x1, y: y1), controlPoint2: Point(x: x2, y: y2)), t)
        case 2:
            put(Int32(2), 0)
            let ratio = random.uniform(0.2, 2)
            put(ratio, 40)
            return (try SpringTimingParameters(dampingRatio: ratio, initialVelocity: Vector(dx: vx, dy: vy)), t)
        case 3:
            put(Int32(3), 0)
            let m = random.uniform(0.5, 2), k = random.uniform(50, 400), c = random.uniform(5, 40)
            var spring: OpaquePointer?
            XCTAssertEqual(kn_spring_create(m, k, c, &spring), 0)
            springs.append(spring)
            put(UnsafeRawPointer(spring), 48)
            return (try SpringTimingParameters(mass: m, stiffness: k, damping: c, initialVelocity: Vector(dx: vx, dy: vy)), t)
        default:
            put(Int32(0), 0)
            return (CubicTimingParameters(animationCurve: .linear), t)
        }
    }

    func testSwiftAndCEnginesAgreeBitForBit() async throws {
        var random = SeededRandom(seed: 0xD1FF)
        var steps = 0, calls = 0, refused = 0, completions = 0
        weak var previousEngine: AnimationEngine?
        for sequence in 0 ..< 10_000 {
            // Nothing of the last sequence keeps its engine alive (a cycle would leak it all).
            XCTAssertNil(previousEngine, "sequence \(sequence - 1) leaked its engine")
            let engine = AnimationEngine()
            previousEngine = engine
            var cEngine: OpaquePointer?
            XCTAssertEqual(kn_engine_create(&cEngine), 0)
            var springs: [OpaquePointer?] = []
            defer {
                kn_engine_destroy(cEngine)
                for s in springs { kn_spring_destroy(s) }
            }
            var views: [View] = []
            for v in 0 ..< viewCount {
                let view = View(frame: Rect(x: Double(v) * 50, y: 10, width: 20, height: 20))
                view.alpha = random.uniform(0, 1)
                views.append(view)
                var first: Int64 = -1
                let values = [view.center.x, view.center.y, view.alpha]
                XCTAssertEqual(kn_engine_add_lanes(cEngine, values, 3, &first), 0)
                XCTAssertEqual(first, Int64(3 * v))
            }
            var animators: [PropertyAnimator] = [], runs: [UInt64] = []
            var swiftLog: [(Int, ViewAnimatingPosition)] = [], cLog: [(Int, Int32)] = []
            var time = 0.0

            /// An animations block for a random view: the same targets on both sides.
            func animations() -> (block: @MainActor () -> Void, lanes: [Int64], targets: [Double], vertical: [Int32]) {
                let v = Int(random.next() % UInt64(viewCount))
                let x = random.uniform(-100, 300), y = random.uniform(-100, 300), a = random.uniform(0, 1)
                let which = random.next() % 3
                let view = views[v]
                switch which {
                case 0: return ({ view.center = Point(x: x, y: y) }, [Int64(3 * v), Int64(3 * v + 1)], [x, y], [0, 1])
                case 1: return ({ view.alpha = a }, [Int64(3 * v + 2)], [a], [0])
                default:
                    return ({ view.center = Point(x: x, y: y); view.alpha = a },
                            [Int64(3 * v), Int64(3 * v + 1), Int64(3 * v + 2)], [x, y, a], [0, 1, 0])
                }
            }

            /// Logs every completion of `animator` (a handler runs once: it adds the next).
            func hook(_ animator: PropertyAnimator, _ index: Int) {
                // Weakly: a handler that held its animator would keep it (and its engine) forever.
                animator.addCompletion { [weak animator] position in
                    swiftLog.append((index, position))
                    if let animator { hook(animator, index) }
                }
            }

            func makeAnimator() throws {
                let (provider, t) = try timing(&random, springs: &springs)
                let duration = random.uniform(0.05, 1.5)
                let index = animators.count
                let animator = try PropertyAnimator(duration: duration, timingParameters: provider, engine: engine)
                hook(animator, index)
                var run: UInt64 = 0
                XCTAssertEqual(t.withUnsafeBytes { kn_engine_run_create(cEngine, $0.baseAddress, duration, &run) }, 0)
                animators.append(animator)
                runs.append(run)
            }

            for _ in 0 ..< 3 { try makeAnimator() }
            for _ in 0 ..< 24 {
                steps += 1
                let k = Int(random.next() % UInt64(animators.count))
                let a = animators[k], run = runs[k]
                var swiftThrew = false
                func swift(_ body: () throws -> Void) {
                    do { try body() } catch { swiftThrew = true }
                }
                var status: Int32 = 0
                switch random.next() % 16 {
                case 0, 1, 2:
                    let (block, lanes, targets, vertical) = animations()
                    let factor = random.chance(0.7) ? 0 : random.uniform(0, 1)
                    swift { try a.addAnimations(block, delayFactor: factor) }
                    status = kn_engine_run_add_animations(cEngine, run, lanes, targets, vertical, Int64(lanes.count), factor)
                case 3, 4: swift { try a.startAnimation() }; status = kn_engine_run_start(cEngine, run)
                case 5:
                    let d = random.uniform(0, 0.3)
                    swift { try a.startAnimation(afterDelay: d) }
                    status = kn_engine_run_start_after_delay(cEngine, run, d)
                case 6: swift { try a.pauseAnimation() }; status = kn_engine_run_pause(cEngine, run)
                case 7:
                    let f = random.unit()
                    swift { try a.setFractionComplete(f) }
                    status = kn_engine_run_set_fraction(cEngine, run, f)
                case 8:
                    // Refused (running and not interruptible): reported, not thrown. Ignored
                    // (stopped): neither, on both sides; the flags are compared below.
                    let r = !a.isReversed
                    var refused = false
                    let handler = Diagnostics.handler
                    Diagnostics.handler = { _ in refused = true }
                    a.isReversed = r
                    Diagnostics.handler = handler
                    status = kn_engine_run_set_reversed(cEngine, run, r ? 1 : 0)
                    swiftThrew = refused
                    // kn_run_info: six int32_t flags (the third is `reversed`), then a double.
                    var info = [Int32](repeating: -1, count: 8)
                    XCTAssertEqual(info.withUnsafeMutableBytes { kn_engine_run_info(cEngine, run, $0.baseAddress) }, 0)
                    XCTAssertEqual(info[2] != 0, a.isReversed, "sequence \(sequence): the direction")
                case 9:
                    let factor = random.chance(0.5) ? 0 : random.uniform(0, 2)
                    if random.chance(0.5) {
                        swift { try a.continueAnimation(withTimingParameters: nil, durationFactor: factor) }
                        status = kn_engine_run_continue(cEngine, run, nil, factor)
                    } else {
                        let (provider, t) = try timing(&random, springs: &springs)
                        swift { try a.continueAnimation(withTimingParameters: provider, durationFactor: factor) }
                        status = t.withUnsafeBytes { kn_engine_run_continue(cEngine, run, $0.baseAddress, factor) }
                    }
                case 10:
                    let without = random.chance(0.5)
                    swift { try a.stopAnimation(without) }
                    if without, !swiftThrew { hook(a, k) }  // stopping without finishing drops the handlers
                    status = kn_engine_run_stop(cEngine, run, without ? 1 : 0)
                case 11:
                    let position = ViewAnimatingPosition(rawValue: Int(random.next() % 3))!
                    swift { try a.finishAnimation(at: position) }
                    status = kn_engine_run_finish(cEngine, run, Int32(position.rawValue))
                    if status == 0 { cLog.append((k, Int32(position.rawValue))) }
                case 12:
                    let p = random.chance(0.5)
                    a.pausesOnCompletion = p
                    status = kn_engine_run_set_pauses_on_completion(cEngine, run, p ? 1 : 0)
                case 13:
                    // A model write outside any animation.
                    let v = Int(random.next() % UInt64(viewCount)), x = random.uniform(-50, 50)
                    views[v].center = Point(x: x, y: views[v].center.y)
                    status = kn_engine_set_model(cEngine, Int64(3 * v), x)
                default:
                    time += random.chance(0.2) ? random.uniform(0.3, 2) : 1.0 / 60
                    try engine.clock.advance(to: time)
                    status = kn_engine_advance_to(cEngine, time)
                }
                calls += 1
                XCTAssertEqual(swiftThrew, status != 0, "sequence \(sequence): refused on one side only (status \(status))")
                if status != 0 { refused += 1 }
                if animators.count < 6, random.chance(0.05) { try makeAnimator() }
                // Events.
                var event = [UInt8](repeating: 0, count: 16), has: Int32 = 1
                while has != 0 {
                    XCTAssertEqual(event.withUnsafeMutableBytes { kn_engine_next_event(cEngine, $0.baseAddress, &has) }, 0)
                    guard has != 0 else { break }
                    let id = event.withUnsafeBytes { $0.load(fromByteOffset: 0, as: UInt64.self) }
                    let kind = event.withUnsafeBytes { $0.load(fromByteOffset: 8, as: Int32.self) }
                    let position = event.withUnsafeBytes { $0.load(fromByteOffset: 12, as: Int32.self) }
                    if kind == 0, let index = runs.firstIndex(of: id) { cLog.append((index, position)) }
                }
                // Lanes.
                var lanes = [Double](repeating: .nan, count: 3 * viewCount)
                XCTAssertEqual(kn_engine_read(cEngine, 0, Int64(lanes.count), &lanes), 0)
                for (v, view) in views.enumerated() {
                    let p = view.presentation
                    for (j, value) in [p.center.x, p.center.y, p.alpha].enumerated()
                    where value.bitPattern != lanes[3 * v + j].bitPattern {
                        XCTFail("sequence \(sequence): view \(v) lane \(j): Swift \(value), C \(lanes[3 * v + j])")
                    }
                }
                // States.
                for (index, animator) in animators.enumerated() {
                    var info = [UInt8](repeating: 0, count: 32)
                    XCTAssertEqual(info.withUnsafeMutableBytes { kn_engine_run_info(cEngine, runs[index], $0.baseAddress) }, 0)
                    let state = info.withUnsafeBytes { $0.load(fromByteOffset: 0, as: Int32.self) }
                    let running = info.withUnsafeBytes { $0.load(fromByteOffset: 4, as: Int32.self) }
                    let fraction = info.withUnsafeBytes { $0.load(fromByteOffset: 24, as: Double.self) }
                    if Int32(animator.state.rawValue) != state || (animator.isRunning ? 1 : 0) != running
                        || animator.fractionComplete.bitPattern != fraction.bitPattern {
                        XCTFail("sequence \(sequence): animator \(index): Swift \(animator.state) running \(animator.isRunning) "
                                + "f \(animator.fractionComplete), C \(state) \(running) \(fraction)")
                    }
                }
                if swiftLog.count != cLog.count
                    || zip(swiftLog, cLog).contains(where: { $0.0 != $1.0 || $0.1.rawValue != Int($1.1) }) {
                    XCTFail("sequence \(sequence): completions differ: Swift \(swiftLog), C \(cLog)")
                    return
                }
            }
            completions += swiftLog.count
            // Leave nothing running on the Swift engine (it is freed with the sequence).
            for animator in animators where animator.state == .stopped { try animator.finishAnimation(at: .current) }
            for animator in animators where animator.state == .active && animator.isInterruptible {
                try animator.stopAnimation(true)
            }
        }
        print("[Engine differential] 10,000 sequences, \(steps) steps, \(calls) calls (\(refused) refused on both sides), "
              + "\(completions) completions, all bit for bit")
    }
}
