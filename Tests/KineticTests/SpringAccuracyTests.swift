import Foundation
// Accuracy of Spring against the independent Float80 closed form (SpringReference80 in
// Float80Reference.swift): value/velocity, settling duration, Φ stepping, conversions and
// parameter validation.
//
// Bars (from the issue): value error ≤ 1e-12 · max(1, max |displacement| seen); velocity error
// ≤ 1e-12 · max(1, max |velocity| seen); settling duration within 1e-4 s of the reference;
// 10,000 Φ steps within 1e-12 of the closed form.

import Kinetic
import XCTest
import TestSupport

final class SpringAccuracyTests: XCTestCase {
    static let bar = 1e-12

    struct Params: CustomStringConvertible {
        let mass: Double, stiffness: Double, zeta: Double
        var damping: Double { 2 * zeta * (stiffness * mass).squareRoot() }
        var description: String { "mass \(mass), stiffness \(stiffness), damping \(damping) (ζ = \(zeta))" }
        func spring() throws -> Spring { try Spring(mass: mass, stiffness: stiffness, damping: damping) }
        func reference() -> SpringReference80 { SpringReference80(mass: mass, stiffness: stiffness, damping: damping) }
    }

    static let zetas: [Double] = [0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 0.99, 1 - 1e-6, 1 - 1e-9, 1, 1 + 1e-9, 1 + 1e-6, 1.01, 1.5, 3, 10, 20]
    static let masses: [Double] = [0.01, 0.1, 1, 10, 100]
    static let stiffnesses: [Double] = [0.1, 1, 10, 100, 1e3, 1e4, 1e5]
    static let velocities: [Double] = [-100, -10, -1, 0, 0.5, 10, 100]

    static func family(_ zeta: Double) -> String {
        switch zeta {
        case ..<0.5: return "underdamped soft (ζ < 0.5)"
        case ..<0.995: return "underdamped (0.5 ≤ ζ < 1)"
        case ..<1: return "near-critical below (1 − 1e-6 … 1 − 1e-9)"
        case 1: return "critical (ζ = 1)"
        case ...1.000_01: return "near-critical above (1 + 1e-9 … 1 + 1e-6)"
        default: return "overdamped (1.01 ≤ ζ ≤ 20)"
        }
    }

    struct Worst {
        var relative = 0.0
        var text = ""
    }

    // MARK: value(at:) and velocity(at:)

    func testValueAndVelocityAgainstFloat80ClosedForm() throws {
        var rng = SeededRandom(seed: 0x5B12_0001)
        var cases: [(Params, Double)] = []
        for z in Self.zetas { for m in Self.masses { for k in Self.stiffnesses { for v in Self.velocities {
            cases.append((Params(mass: m, stiffness: k, zeta: z), v))
        } } } }
        // Random springs across the whole box.
        for _ in 0..<500 {
            let z = rng.chance(0.2) ? [1 - 1e-9, 1.0, 1 + 1e-9][Int(rng.next() % 3)] : rng.logUniform(0.05, 20)
            cases.append((Params(mass: rng.logUniform(0.01, 100), stiffness: rng.logUniform(0.1, 1e5), zeta: z), rng.uniform(-100, 100)))
        }
        var worstValue: [String: Worst] = [:], worstVelocity: [String: Worst] = [:]
        var failures = 0
        for (p, v0) in cases {
            let spring = try p.spring()
            let ref = p.reference()
            let settle = spring.settlingDuration(initialVelocity: v0)
            XCTAssertTrue(settle.isFinite && settle > 0, "\(p), v0 \(v0): settlingDuration \(settle)")
            guard settle.isFinite, settle > 0 else { continue }
            var times: [Double] = [0, 1e-300, 1e-12 * settle, 1e-6 * settle]
            for i in 1...40 { times.append(settle * Double(i) / 40) }
            for _ in 0..<12 { times.append(rng.uniform(0, 1.5 * settle)) }
            for _ in 0..<8 { times.append(rng.logUniform(1e-9, 1) * settle) }
            var expected: [(Double, Double)] = []
            var ampX = 1.0, ampV = 1.0
            for t in times {
                let r = ref.unitMove(at: t, initialVelocity: v0)
                ampX = max(ampX, Double(abs(r.value - 1)))
                ampV = max(ampV, Double(abs(r.velocity)))
                expected.append((Double(r.value), Double(r.velocity)))
            }
            let fam = Self.family(p.zeta)
            for (i, t) in times.enumerated() {
                let x = spring.value(at: t, initialVelocity: v0)
                let v = spring.velocity(at: t, initialVelocity: v0)
                let ex = x.isNaN ? .infinity : abs(x - expected[i].0) / ampX
                let ev = v.isNaN ? .infinity : abs(v - expected[i].1) / ampV
                if ex > worstValue[fam, default: Worst()].relative {
                    worstValue[fam] = Worst(relative: ex, text: "\(p), v0 \(v0), t \(t): value expected \(expected[i].0), got \(x), amplitude \(ampX)")
                }
                if ev > worstVelocity[fam, default: Worst()].relative {
                    worstVelocity[fam] = Worst(relative: ev, text: "\(p), v0 \(v0), t \(t): velocity expected \(expected[i].1), got \(v), amplitude \(ampV)")
                }
                if !(ex <= Self.bar) || !(ev <= Self.bar) {
                    failures += 1
                    if failures <= 10 {
                        XCTFail("\(p), v0 \(v0), t = \(t): value \(x) vs \(expected[i].0) (rel \(ex)); velocity \(v) vs \(expected[i].1) (rel \(ev))")
                    }
                }
            }
        }
        for fam in worstValue.keys.sorted() {
            print("[Spring accuracy] \(fam): max value error / amplitude = \(worstValue[fam]!.relative) (\(worstValue[fam]!.text))")
            print("[Spring accuracy] \(fam): max velocity error / amplitude = \(worstVelocity[fam]!.relative) (\(worstVelocity[fam]!.text))")
        }
        print("[Spring accuracy] \(cases.count) springs checked, \(failures) values beyond 1e-12")
        XCTAssertEqual(failures, 0)
    }

    func testHeavilyOverdampedLongTimes() throws {
        var worst = 0.0
        for z in [20.0, 100, 1000] {
            for (m, k) in [(1.0, 100.0), (0.01, 1e5), (100, 0.1), (1, 1)] {
                for v0 in [-100.0, 0, 100] {
                    let p = Params(mass: m, stiffness: k, zeta: z)
                    let spring = try p.spring()
                    let ref = p.reference()
                    let settle = spring.settlingDuration(initialVelocity: v0)
                    XCTAssertTrue(settle.isFinite && settle > 0, "\(p) v0 \(v0): settling \(settle)")
                    var times: [Double] = [1e-9, 1e-3, 1, 10, 1e3, 1e6, 1e9, 1e15, 1e100, 1e300, .greatestFiniteMagnitude]
                    if settle.isFinite { times += [0.01, 0.1, 0.5, 1, 2, 10, 100].map { $0 * settle } }
                    let amp = max(1, times.map { Double(abs(ref.unitMove(at: $0, initialVelocity: v0).value - 1)) }.max()!)
                    for t in times {
                        let x = spring.value(at: t, initialVelocity: v0)
                        let v = spring.velocity(at: t, initialVelocity: v0)
                        XCTAssertTrue(x.isFinite && v.isFinite, "\(p) v0 \(v0) t \(t): value \(x), velocity \(v)")
                        let r = ref.unitMove(at: t, initialVelocity: v0)
                        let e = abs(x - Double(r.value)) / amp
                        worst = max(worst, e.isNaN ? .infinity : e)
                        XCTAssertLessThanOrEqual(e, Self.bar, "\(p) v0 \(v0) t \(t): value \(x) vs \(Double(r.value))")
                    }
                    XCTAssertEqual(spring.value(at: 1e300, initialVelocity: v0), 1)
                }
            }
        }
        print("[Spring accuracy] heavily overdamped (ζ = 20, 100, 1000) incl. long times: max value error / amplitude = \(worst)")
    }

    // MARK: Settling duration

    func testSettlingDurationAgainstReferenceScan() throws {
        var cases: [(Params, Double, Double)] = []
        let zetas: [Double] = [0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 0.9, 1 - 1e-9, 1, 1 + 1e-9, 1.5, 3, 20]
        for z in zetas {
            for (m, k) in [(1.0, 100.0), (0.1, 1e4), (10, 1), (100, 0.1), (0.01, 1e5)] {
                for v0 in [-10.0, 0, 3, 20] {
                    cases.append((Params(mass: m, stiffness: k, zeta: z), v0, Spring.defaultEpsilon))
                }
            }
            cases.append((Params(mass: 1, stiffness: 100, zeta: z), 0, 1e-2))
            cases.append((Params(mass: 1, stiffness: 100, zeta: z), 5, 1e-5))
        }
        var worst = 0.0, worstText = ""
        var crossings: [Int] = []
        for (p, v0, eps) in cases {
            let spring = try p.spring()
            let ref = p.reference()
            let expected = ref.settlingTime(initialVelocity: v0, epsilon: eps)
            let actual = spring.settlingDuration(initialVelocity: v0, epsilon: eps)
            let error = abs(actual - expected)
            if !(error <= worst) { worst = error; worstText = "\(p), v0 \(v0), ε \(eps): expected \(expected), got \(actual)" }
            XCTAssertLessThanOrEqual(error, 1e-4, "\(p), v0 \(v0), ε \(eps): settling expected \(expected) s, got \(actual) s")
            // The motion just after the reference time is inside the band, just before it is not.
            let after = ref.unitMove(at: expected * (1 + 1e-9) + 1e-12, initialVelocity: v0).value - 1
            let before = ref.unitMove(at: expected * (1 - 1e-9), initialVelocity: v0).value - 1
            XCTAssertLessThanOrEqual(Double(abs(after)), eps * (1 + 1e-9))
            XCTAssertGreaterThanOrEqual(Double(abs(before)), eps * (1 - 1e-9))
            if p.zeta <= 0.3 && eps == Spring.defaultEpsilon {
                // How many times the soft spring enters the band before settling (shows the
                // test covers band crossings).
                var count = 0, inside = false
                let n = 4000
                for i in 0...n {
                    let t = expected * Double(i) / Double(n)
                    let now = abs(Double(ref.unitMove(at: t, initialVelocity: v0).value - 1)) <= eps
                    if now && !inside { count += 1 }
                    inside = now
                }
                crossings.append(count)
            }
        }
        print("[Spring accuracy] settlingDuration: \(cases.count) cases, max |error| = \(worst) s (\(worstText))")
        print("[Spring accuracy] soft springs (ζ ≤ 0.3) enter the band \(crossings.min() ?? 0)…\(crossings.max() ?? 0) times before settling")
        XCTAssertGreaterThanOrEqual(crossings.min() ?? 0, 2)
    }

    /// The settling definition (last exit from the band) differs from instantaneous
    /// thresholds; the test above would catch an implementation using either rule.
    func testSettlingIsNotAnInstantaneousThreshold() throws {
        let p = Params(mass: 1, stiffness: 100, zeta: 0.1)
        let spring = try p.spring()
        let ref = p.reference()
        let eps = Spring.defaultEpsilon
        let expected = ref.settlingTime(initialVelocity: 0, epsilon: eps)
        // Rule A: stop at the first 60 Hz frame with |x| < ε (a zero crossing).
        // Rule B: stop at the first 60 Hz frame with |v| < 0.01·ω0 (a turning point).
        var ruleA = Double.nan, ruleB = Double.nan
        for n in 1...100_000 {
            let t = Double(n) / 60
            let r = ref.unitMove(at: t, initialVelocity: 0)
            if ruleA.isNaN && abs(Double(r.value - 1)) < eps { ruleA = t }
            if ruleB.isNaN && abs(Double(r.velocity)) < 0.01 * 10 { ruleB = t }
            if !ruleA.isNaN && !ruleB.isNaN { break }
        }
        let actual = spring.settlingDuration()
        print("[Spring accuracy] ζ = 0.1, k = 100: settling \(expected) s (reference), \(actual) s (Kinetic); instantaneous |x| < ε rule stops at \(ruleA) s, |v| < 0.1 rule at \(ruleB) s")
        XCTAssertGreaterThan(expected - ruleA, 1, "an instantaneous position threshold stops far too early")
        XCTAssertGreaterThan(expected - ruleB, 1, "an instantaneous velocity threshold stops far too early")
        XCTAssertEqual(actual, expected, accuracy: 1e-4)
        XCTAssertGreaterThan(abs(actual - ruleA), 1e-4)
        XCTAssertGreaterThan(abs(actual - ruleB), 1e-4)
    }

    func testUndampedNeverSettles() throws {
        XCTAssertEqual(try Spring(mass: 1, stiffness: 100, damping: 0).settlingDuration(), .infinity)
    }

    // MARK: Φ stepping

    func testTransitionSteppingMatchesClosedForm() throws {
        var springs: [Params] = []
        for z in [0.1, 0.3, 0.5, 0.7, 0.9, 1 - 1e-9, 1, 1 + 1e-9, 1.5, 3, 10] {
            for k in [1.0, 100, 1e4] { for m in [0.1, 1, 10] { springs.append(Params(mass: m, stiffness: k, zeta: z)) } }
        }
        springs += [Params(mass: 100, stiffness: 0.1, zeta: 0.05), Params(mass: 0.01, stiffness: 1e5, zeta: 0.05),
                    Params(mass: 1, stiffness: 1e5, zeta: 20), Params(mass: 100, stiffness: 0.1, zeta: 20)]
        let steps = 10_000
        var worstX = 0.0, worstV = 0.0, worstRun = 0.0, worstText = ""
        var failures = 0
        for p in springs {
            let spring = try p.spring()
            let ref = p.reference()
            for dt in [1.0 / 60, 1.0 / 120] {
                let phi = try spring.transition(over: dt)
                XCTAssertEqual(phi.dt, dt)
                for v0 in [-50.0, 0, 50] {
                    var state = SpringState(displacement: -1, velocity: v0)
                    var expected: [(Float80, Float80)] = []
                    expected.reserveCapacity(steps)
                    var ampX: Float80 = 1, ampV: Float80 = 1
                    for n in 1...steps {
                        let r = ref.state(at: Float80(n) * Float80(dt), displacement: -1, velocity: Float80(v0))
                        expected.append(r)
                        ampX = max(ampX, abs(r.x)); ampV = max(ampV, abs(r.v))
                    }
                    var runWorst = 0.0, runText = ""
                    for n in 1...steps {
                        state = phi.applied(to: state)
                        let ex = abs(state.displacement - Double(expected[n - 1].0)) / Double(ampX)
                        let ev = abs(state.velocity - Double(expected[n - 1].1)) / Double(ampV)
                        let e = max(ex.isNaN ? .infinity : ex, ev.isNaN ? .infinity : ev)
                        if e > runWorst { runWorst = e; runText = "step \(n): displacement \(state.displacement) vs \(Double(expected[n - 1].0)), velocity \(state.velocity) vs \(Double(expected[n - 1].1))" }
                        worstX = max(worstX, ex); worstV = max(worstV, ev)
                    }
                    if runWorst > worstRun { worstRun = runWorst; worstText = "\(p), dt \(dt), v0 \(v0), \(runText)" }
                    if !(runWorst <= Self.bar) {
                        failures += 1
                        if failures <= 10 { XCTFail("Φ stepping \(p), dt \(dt), v0 \(v0): error / amplitude \(runWorst) at \(runText)") }
                    }
                }
            }
        }
        print("[Spring accuracy] Φ stepping, \(steps) steps at 1/60 and 1/120 s, \(springs.count) springs x 3 velocities: max displacement error / amplitude = \(worstX), velocity = \(worstV) (worst: \(worstText))")
        XCTAssertEqual(failures, 0)
    }

    // MARK: Conversions

    func testApplePublishedExamples() throws {
        let a = try Spring(duration: 0.5, bounce: 0.3)
        XCTAssertEqual(a.mass, 1)
        XCTAssertEqual((a.stiffness * 10).rounded() / 10, 157.9)
        XCTAssertEqual((a.damping * 10).rounded() / 10, 17.6)
        XCTAssertEqual(a.stiffness, 157.91367041742973, accuracy: 1e-9)  // (4π)²
        XCTAssertEqual(a.damping, 17.59291886010284, accuracy: 1e-9)     // 4π·0.7/0.5
        let b = try Spring(mass: 1, stiffness: 100, damping: 10)
        XCTAssertEqual((b.duration * 100).rounded() / 100, 0.63)
        XCTAssertEqual(b.duration, 0.6283185307179586, accuracy: 1e-15)  // 2π/10
        XCTAssertEqual(b.response, b.duration)
        XCTAssertEqual(b.bounce, 0.5, accuracy: 1e-15)
        XCTAssertEqual(b.dampingRatio, 0.5, accuracy: 1e-15)
        XCTAssertEqual(Spring.coreAnimationDefault, b)
    }

    func testRoundTrips() throws {
        for zeta in [0.0, 0.05, 0.3, 0.5, 1, 1.5, 4.56, 20] {
            for response in [0.01, 0.1, 0.5, 1, 3, 100] {
                let s = try Spring(dampingRatio: zeta, response: response)
                XCTAssertEqual(s.mass, 1)
                XCTAssertEqual(s.dampingRatio, zeta, accuracy: 1e-14 * max(1, zeta))
                XCTAssertEqual(s.response, response, accuracy: 1e-14 * response)
                XCTAssertEqual(s.stiffness, pow(2 * .pi / response, 2), accuracy: 1e-13 * s.stiffness)
            }
        }
        for bounce in [-0.95, -0.7, -0.5, -0.2, -1e-9, 0, 1e-9, 0.2, 0.3, 0.5, 0.95] {
            for duration in [0.05, 0.5, 1, 4] {
                let s = try Spring(duration: duration, bounce: bounce)
                XCTAssertEqual(s.bounce, bounce, accuracy: 1e-14, "duration \(duration), bounce \(bounce)")
                XCTAssertEqual(s.duration, duration, accuracy: 1e-14 * duration)
                let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
                XCTAssertEqual(s.dampingRatio, zeta, accuracy: 1e-14 * zeta)
            }
        }
        // Negative bounce is overdamped: bounce −0.5 ⇔ ζ = 2.
        XCTAssertEqual(try Spring(duration: 1, bounce: -0.5).dampingRatio, 2, accuracy: 1e-14)
        // Physical parameters read back.
        let s = try Spring(mass: 3, stiffness: 1000, damping: 500)
        XCTAssertEqual(s.dampingRatio, 500 / (2 * (3000.0).squareRoot()), accuracy: 1e-15)
        XCTAssertEqual(s.dampingRatio, 4.564, accuracy: 1e-3)
        XCTAssertEqual(s.bounce, 1 / s.dampingRatio - 1, accuracy: 1e-15)
    }

    /// Where k·m or m/k underflows or overflows, the derived properties are still right
    /// (checked in Float80, whose exponent range holds the products); a fuzzer finding: k·m
    /// underflowed to 0 and ζ came out infinite.
    func testDerivedPropertiesOfExtremeSprings() throws {
        let scales = [5e-324, 1e-300, 1e-200, 1e-160, 1e-3, 1, 1e160, 1e200, 1e300]
        var checked = 0
        for m in scales {
            for k in scales {
                for c in scales {
                    guard let s = try? Spring(mass: m, stiffness: k, damping: c) else { continue }
                    #if arch(x86_64)
                    let zeta = Float80(c) / (2 * (Float80(k) * Float80(m)).squareRoot())
                    let period = 2 * Float80.pi * (Float80(m) / Float80(k)).squareRoot()
                    for (got, want) in [(s.dampingRatio, zeta), (s.response, period)] {
                        if want <= Float80(Double.greatestFiniteMagnitude) && want >= Float80(Double.leastNormalMagnitude) {
                            XCTAssertEqual(Float80(got), want, accuracy: want * 1e-15, "\(s)")
                        } else if want > 1 {
                            XCTAssertEqual(got, .infinity, "\(s)")
                        }
                    }
                    #endif
                    XCTAssertFalse(s.dampingRatio.isNaN || s.response.isNaN || s.bounce.isNaN, "\(s)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    func testSettlingDurationInitialiser() throws {
        var worst = 0.0, worstRef = 0.0
        for zeta in [0.05, 0.1, 0.3, 0.7, 1, 1.5, 5] {
            for target in [0.1, 0.5, 1, 2, 10] {
                for eps in [Spring.defaultEpsilon, 0.01] {
                    let s = try Spring(settlingDuration: target, dampingRatio: zeta, epsilon: eps)
                    XCTAssertEqual(s.mass, 1)
                    XCTAssertEqual(s.dampingRatio, zeta, accuracy: 1e-12 * zeta)
                    let got = s.settlingDuration(epsilon: eps)
                    let ref = SpringReference80(mass: s.mass, stiffness: s.stiffness, damping: s.damping)
                        .settlingTime(initialVelocity: 0, epsilon: eps)
                    worst = max(worst, abs(got - target)); worstRef = max(worstRef, abs(ref - target))
                    XCTAssertEqual(got, target, accuracy: 1e-6, "ζ \(zeta), T \(target), ε \(eps)")
                    XCTAssertEqual(ref, target, accuracy: 1e-6, "reference settling, ζ \(zeta), T \(target), ε \(eps)")
                }
            }
        }
        print("[Spring accuracy] Spring(settlingDuration:dampingRatio:): max |settlingDuration() − T| = \(worst) s (Kinetic), \(worstRef) s (reference)")
    }

    /// At extreme ratios the settling time of the unit spring leaves the range of the rates:
    /// the error names the duration given and the durations that work for that ratio, and a
    /// duration inside that range makes a spring that settles when asked.
    func testSettlingDurationInitialiserAtExtremeRatiosNamesTheDurationsThatWork() throws {
        // Past about 1e300 no duration gives rates in range: the ratio is named.
        for zeta in [1e301, 1e305, Double.greatestFiniteMagnitude] {
            XCTAssertThrowsError(try Spring(settlingDuration: 1, dampingRatio: zeta)) { error in
                guard case .outOfRange(let name, let value, _)? = error as? ParameterError else { return XCTFail("\(error)") }
                XCTAssertEqual(name, "dampingRatio")
                XCTAssertEqual(value, zeta)
            }
        }
        for zeta in [1e-200, 1e-100, 1e-20, 1e20, 1e100, 1e200] {
            for duration in [1e-300, 1e-3, 1, 1e3, 1e300] {
                do {
                    let s = try Spring(settlingDuration: duration, dampingRatio: zeta)
                    XCTAssertEqual(s.dampingRatio / zeta, 1, accuracy: 1e-9, "ζ \(zeta), T \(duration)")
                    XCTAssertEqual(s.settlingDuration() / duration, 1, accuracy: 1e-6, "ζ \(zeta), T \(duration)")
                } catch let error as ParameterError {
                    guard case .outOfRange(let name, let value, let expected) = error else {
                        return XCTFail("ζ \(zeta), T \(duration): \(error)")
                    }
                    XCTAssertEqual(name, "settlingDuration", "\(error)")
                    XCTAssertEqual(value, duration)
                    XCTAssertTrue(expected.hasSuffix("(for dampingRatio = \(zeta))"), expected)
                    // The interval it gives: its geometric middle is accepted.
                    let bounds = expected.dropFirst().prefix { $0 != "]" }.split(separator: ",")
                        .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                    XCTAssertEqual(bounds.count, 2, expected)
                    guard bounds.count == 2 else { continue }
                    XCTAssertFalse((bounds[0] ... bounds[1]).contains(duration), "\(error)")
                    let middle = (bounds[0].squareRoot() * bounds[1].squareRoot())
                    let made = try Spring(settlingDuration: middle, dampingRatio: zeta)
                    XCTAssertEqual(made.settlingDuration() / middle, 1, accuracy: 1e-6, "ζ \(zeta), T \(middle)")
                }
            }
        }
    }

    // MARK: Validation

    enum ErrorKind { case notFinite, outOfRange }

    func expectError(_ kind: ErrorKind, _ parameter: String, value: Double, _ body: () throws -> Any,
                     file: StaticString = #filePath, line: UInt = #line) {
        do {
            let made = try body()
            XCTFail("expected \(kind) for \(parameter) = \(value), got \(made)", file: file, line: line)
        } catch let error as ParameterError {
            switch (kind, error) {
            case (.notFinite, .notFinite(let name, let v)), (.outOfRange, .outOfRange(let name, let v, _)):
                XCTAssertEqual(name, parameter, "\(error)", file: file, line: line)
                XCTAssertTrue(v == value || (v.isNaN && value.isNaN), "\(error) carries \(v), expected \(value)", file: file, line: line)
            default:
                XCTFail("expected \(kind) for \(parameter) = \(value), got \(error)", file: file, line: line)
            }
        } catch {
            XCTFail("expected ParameterError, got \(error)", file: file, line: line)
        }
    }

    func testConstructionRejectsBadParameters() {
        let nonFinite: [Double] = [.nan, .infinity, -.infinity]
        for bad in [0.0, -0.0, -1, -1e-300] {
            expectError(.outOfRange, "mass", value: bad) { try Spring(mass: bad, stiffness: 1, damping: 1) }
            expectError(.outOfRange, "stiffness", value: bad) { try Spring(mass: 1, stiffness: bad, damping: 1) }
            expectError(.outOfRange, "response", value: bad) { try Spring(dampingRatio: 0.5, response: bad) }
            expectError(.outOfRange, "duration", value: bad) { try Spring(duration: bad, bounce: 0) }
            expectError(.outOfRange, "settlingDuration", value: bad) { try Spring(settlingDuration: bad, dampingRatio: 1) }
            expectError(.outOfRange, "dampingRatio", value: bad) { try Spring(settlingDuration: 1, dampingRatio: bad) }
            expectError(.outOfRange, "epsilon", value: bad) { try Spring(settlingDuration: 1, dampingRatio: 1, epsilon: bad) }
        }
        for bad in [-1e-300, -1, -100] {
            expectError(.outOfRange, "damping", value: bad) { try Spring(mass: 1, stiffness: 1, damping: bad) }
            expectError(.outOfRange, "dampingRatio", value: bad) { try Spring(dampingRatio: bad, response: 1) }
            expectError(.outOfRange, "dt", value: bad) { try Spring.coreAnimationDefault.transition(over: bad) }
        }
        for bad in [1.0, -1, 1.5, -2, 1e300, -1e300] {
            expectError(.outOfRange, "bounce", value: bad) { try Spring(duration: 1, bounce: bad) }
        }
        for bad in [1.0, 2] {
            expectError(.outOfRange, "epsilon", value: bad) { try Spring(settlingDuration: 1, dampingRatio: 1, epsilon: bad) }
        }
        for bad in nonFinite {
            expectError(.notFinite, "mass", value: bad) { try Spring(mass: bad, stiffness: 1, damping: 1) }
            expectError(.notFinite, "stiffness", value: bad) { try Spring(mass: 1, stiffness: bad, damping: 1) }
            expectError(.notFinite, "damping", value: bad) { try Spring(mass: 1, stiffness: 1, damping: bad) }
            expectError(.notFinite, "dampingRatio", value: bad) { try Spring(dampingRatio: bad, response: 1) }
            expectError(.notFinite, "response", value: bad) { try Spring(dampingRatio: 1, response: bad) }
            expectError(.notFinite, "duration", value: bad) { try Spring(duration: bad, bounce: 0) }
            expectError(.notFinite, "bounce", value: bad) { try Spring(duration: 1, bounce: bad) }
            expectError(.notFinite, "settlingDuration", value: bad) { try Spring(settlingDuration: bad, dampingRatio: 1) }
            expectError(.notFinite, "dampingRatio", value: bad) { try Spring(settlingDuration: 1, dampingRatio: bad) }
            expectError(.notFinite, "epsilon", value: bad) { try Spring(settlingDuration: 1, dampingRatio: 1, epsilon: bad) }
            expectError(.notFinite, "dt", value: bad) { try Spring.coreAnimationDefault.transition(over: bad) }
        }
        // The edges that are allowed.
        XCTAssertNoThrow(try Spring(mass: 1, stiffness: 1, damping: 0))
        XCTAssertNoThrow(try Spring(dampingRatio: 0, response: 1))
        XCTAssertNoThrow(try Spring(duration: 1, bounce: 0.999_999))
        XCTAssertNoThrow(try Spring(duration: 1, bounce: -0.999_999))
        XCTAssertNoThrow(try Spring.coreAnimationDefault.transition(over: 0))
    }

    // MARK: The reference itself

    /// Guards the guard: the Float80 reference on cases with a known answer.
    func testReferenceSanity() {
        // Critical, ω0 = 10, from rest: x(t) = −e^{−10t}(1 + 10t).
        let crit = SpringReference80(mass: 1, stiffness: 100, damping: 20)
        for t in [0.01, 0.1, 1.0, 3.0] {
            XCTAssertEqual(Double(crit.unitMove(at: t, initialVelocity: 0).value), 1 - exp(-10 * t) * (1 + 10 * t), accuracy: 1e-15)
        }
        // The branches agree across ζ = 1 (continuity): ζ = 1 ± 1e-12 against ζ = 1.
        let below = SpringReference80(mass: 1, stiffness: 100, damping: 20 * (1 - 1e-12))
        let above = SpringReference80(mass: 1, stiffness: 100, damping: 20 * (1 + 1e-12))
        for t in [0.01, 0.1, 0.5, 2.0] {
            let c = crit.unitMove(at: t, initialVelocity: 7)
            XCTAssertEqual(Double(below.unitMove(at: t, initialVelocity: 7).value), Double(c.value), accuracy: 1e-11)
            XCTAssertEqual(Double(above.unitMove(at: t, initialVelocity: 7).value), Double(c.value), accuracy: 1e-11)
        }
        // Energy-free check: undamped ω0 = 2, x(t) = −cos 2t + (v0/2) sin 2t.
        let free = SpringReference80(mass: 1, stiffness: 4, damping: 0)
        for t in [0.3, 1.7, 10.0] {
            XCTAssertEqual(Double(free.unitMove(at: t, initialVelocity: 3).value), 1 - cos(2 * t) + 1.5 * sin(2 * t), accuracy: 1e-14)
        }
        // Overdamped ζ = 1.25, ω0 = 4: roots −2 and −8; from rest x = −(4/3)e^{−2t} + (1/3)e^{−8t}.
        let over = SpringReference80(mass: 1, stiffness: 16, damping: 10)
        for t in [0.05, 0.5, 3.0] {
            XCTAssertEqual(Double(over.unitMove(at: t, initialVelocity: 0).value), 1 - (4.0 / 3) * exp(-2 * t) + (1.0 / 3) * exp(-8 * t), accuracy: 1e-15)
        }
        // Settling of the critical spring from rest at ε: solve e^{−10t}(1 + 10t) = ε by bisection in Double.
        var lo = 0.0, hi = 10.0
        for _ in 0..<200 { let mid = (lo + hi) / 2; if exp(-10 * mid) * (1 + 10 * mid) > 1e-3 { lo = mid } else { hi = mid } }
        XCTAssertEqual(crit.settlingTime(initialVelocity: 0, epsilon: 1e-3), hi, accuracy: 1e-12)
    }
}
