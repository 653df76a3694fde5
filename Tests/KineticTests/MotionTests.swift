#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Kinetic
import TestSupport
import XCTest

/// Decay, Android's spline fling, rubber-banding and snapping against independent Float80
/// references and the platforms' published constants and values.
final class MotionTests: XCTestCase {
    private func relative(_ a: Double, _ b: Float80) -> Double {
        b == 0 ? Double(abs(Float80(a))) : Double(abs((Float80(a) - b) / b))
    }

    // MARK: Exponential decay

    /// Position, velocity, resting point and settling times against Float80 closed forms
    /// (`expl`, `logl`), within 1e-12 relative, for UIKit's two rates, Compose's friction and
    /// random rates, velocities and times.
    /// A tiny decay constant: |v₀|/λ overflowed before its logarithm was taken, and the
    /// duration saturated at 1.8e308 instead of ln(|v₀|/(λ·ε))/λ, about 7.1e302 s here.
    func testDecayDurationWithATinyConstantTakesTheLogarithmOfEachFactor() throws {
        let decay = try ExponentialDecay(decayConstant: 1e-300)
        let duration = try decay.duration(toWithin: 1, initialVelocity: 1e10)
        let expected = (logl(Float80(1e10)) - logl(Float80(1e-300))) / Float80(1e-300)
        XCTAssertEqual(duration / Double(expected), 1, accuracy: 1e-12)
    }

    /// Targets across the whole range: their differences from the projection overflowed to
    /// infinity, and the tie went to the first target, not the nearest.
    func testSnappingAcrossTheWholeRangePicksTheNearest() throws {
        let one = try Snapping.nearestTarget(position: 1.7e308, velocity: 0, targets: [-1.7e308, -1e308])
        XCTAssertEqual(one.index, 1)
        let plane = try Snapping.decide(position: Point(x: 1.7e308, y: -1.7e308), velocity: Point(x: 0, y: 0),
                                        targets: [Point(x: -1.7e308, y: 1.7e308), Point(x: -1e308, y: 1e308)],
                                        spring: .coreAnimationDefault)
        XCTAssertEqual(plane.index, 1)
    }

    func testExponentialDecayAgainstFloat80() throws {
        var random = SeededRandom(seed: 0x6465_6361_79)
        var decays: [ExponentialDecay] = [.normal, .fast, try ExponentialDecay(frictionMultiplier: 1)]
        for _ in 0 ..< 20 { decays.append(try ExponentialDecay(decelerationRate: random.uniform(0.9, 0.99999))) }
        for decay in decays {
            let lambda = Float80(decay.decayConstant)
            for _ in 0 ..< 200 {
                let v0 = random.uniform(-20000, 20000), t = random.logUniform(1e-4, 30)
                let e = expl(-lambda * Float80(t))
                let v = Float80(v0) * e
                let x = Float80(v0) * (1 - e) / lambda
                if abs(v) > 1e-290 {
                    XCTAssertLessThan(relative(decay.velocity(at: t, initialVelocity: v0), v), 1e-12, "v at \(t)")
                } else {
                    // Below Double's normal range (Float80 reaches further): as small.
                    XCTAssertLessThanOrEqual(abs(decay.velocity(at: t, initialVelocity: v0)), 1e-290)
                }
                XCTAssertLessThan(relative(decay.offset(at: t, initialVelocity: v0), x), 1e-12, "x at \(t)")
                XCTAssertLessThan(relative(decay.restingOffset(initialVelocity: v0), Float80(v0) / lambda), 1e-15)
                let speed = random.uniform(0.01, 10)
                if abs(v0) > speed {
                    let expected = logl(Float80(abs(v0)) / Float80(speed)) / lambda
                    XCTAssertLessThan(relative(try decay.duration(untilSpeed: speed, initialVelocity: v0), expected), 1e-12)
                    // At that time the speed is the threshold.
                    let at = decay.velocity(at: try decay.duration(untilSpeed: speed, initialVelocity: v0), initialVelocity: v0)
                    XCTAssertEqual(abs(at), speed, accuracy: 1e-11 * speed)
                }
                let epsilon = random.uniform(0.001, 1)
                let rest = Float80(abs(v0)) / lambda
                if rest > Float80(epsilon) {
                    let expected = logl(rest / Float80(epsilon)) / lambda
                    XCTAssertLessThan(relative(try decay.duration(toWithin: epsilon, initialVelocity: v0), expected), 1e-12)
                }
            }
        }
    }

    /// UIKit's rates per millisecond, and the WWDC 2018 projection: (v/1000)·r/(1 − r), short
    /// of the continuous resting point by about (1 − r)/2.
    func testUIKitRatesAndTheFluidInterfacesProjection() throws {
        XCTAssertEqual(ExponentialDecay.normal.decelerationRate, 0.998, accuracy: 1e-15)
        XCTAssertEqual(ExponentialDecay.fast.decelerationRate, 0.99, accuracy: 1e-15)
        // One millisecond keeps the rate of the velocity.
        XCTAssertEqual(ExponentialDecay.normal.velocity(at: 0.001, initialVelocity: 1000), 998, accuracy: 1e-9)
        for (decay, r) in [(ExponentialDecay.normal, 0.998), (.fast, 0.99)] {
            let v = 2500.0
            let apple = Float80(v) / 1000 * Float80(r) / (1 - Float80(r))
            XCTAssertLessThan(relative(decay.projectedOffsetFluidInterfaces(initialVelocity: v), apple), 1e-12)
            let shortfall = 1 - decay.projectedOffsetFluidInterfaces(initialVelocity: v) / decay.restingOffset(initialVelocity: v)
            XCTAssertEqual(shortfall, (1 - r) / 2, accuracy: (1 - r) * 0.01, "about (1 − r)/2")
        }
    }

    /// Compose's `exponentialDecay`: friction 4.2 × the multiplier; the published
    /// `DecayAnimationTest` set-up (threshold 2, from 200 at −800) ends at 10 after about
    /// 1.426 s; multipliers below 0.0001 and thresholds below 1e-7 are clamped as Compose does.
    func testComposeExponentialDecay() throws {
        let spec = try ExponentialDecay(absVelocityThreshold: 2)
        XCTAssertEqual(spec.decayConstant, 4.2)
        XCTAssertEqual(200 + spec.stoppingOffset(initialVelocity: -800), 10, accuracy: 1e-12)
        XCTAssertEqual(spec.duration(initialVelocity: -800), 1.426, accuracy: 0.001)
        XCTAssertEqual(spec.duration(initialVelocity: 1.5), 0, "already slower than the threshold")
        XCTAssertEqual(spec.stoppingOffset(initialVelocity: 1.5), 0)
        let v = spec.velocity(at: spec.duration(initialVelocity: -800), initialVelocity: -800)
        XCTAssertEqual(v, -2, accuracy: 1e-12)
        XCTAssertEqual(try ExponentialDecay(frictionMultiplier: 0).decayConstant, 4.2 * 0.0001)
        XCTAssertEqual(try ExponentialDecay(absVelocityThreshold: 0).velocityThreshold, 1e-7)
        XCTAssertEqual(try ExponentialDecay(absVelocityThreshold: -3).velocityThreshold, 3)
    }

    func testBadDecayParametersThrowNamingTheValue() {
        for (rate, name) in [(1.0, "decelerationRate"), (0, "decelerationRate"), (.nan, "decelerationRate")] {
            XCTAssertThrowsError(try ExponentialDecay(decelerationRate: rate)) {
                XCTAssertEqual(($0 as? ParameterError)?.parameter, name)
            }
        }
        XCTAssertThrowsError(try ExponentialDecay(decelerationRate: 0.99, velocityThreshold: -1))
        XCTAssertThrowsError(try ExponentialDecay(frictionMultiplier: .infinity))
        XCTAssertThrowsError(try ExponentialDecay(frictionMultiplier: 1e308)) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "frictionMultiplier")
        }
        XCTAssertThrowsError(try ExponentialDecay.normal.duration(untilSpeed: 0, initialVelocity: 1))
        XCTAssertThrowsError(try ExponentialDecay.normal.duration(toWithin: .nan, initialVelocity: 1))
        // Extreme finite input gives finite output.
        for v in [Double.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude] {
            for t in [-1e6, -1, 0, 1, 1e300] {
                XCTAssertTrue(ExponentialDecay.fast.offset(at: t, initialVelocity: v).isFinite)
                XCTAssertTrue(ExponentialDecay.fast.velocity(at: t, initialVelocity: v).isFinite)
            }
        }
    }

    // MARK: Android's spline fling

    /// The spline in (time, distance) fractions as Android defines it: the time curve
    /// T(u) = 3u(1−u)²·0.175 + 3u²(1−u)·0.35 + u³ and the distance curve
    /// X(u) = 3u(1−u)²·0.5 + 3u²(1−u) + u³, solved in Float80 by bisection.
    private func splineReference(_ tau: Float80) -> (s: Float80, slope: Float80) {
        func T(_ u: Float80) -> Float80 { 3 * u * (1 - u) * ((1 - u) * 0.175 + u * 0.35) + u * u * u }
        var lo: Float80 = 0, hi: Float80 = 1
        for _ in 0 ..< 80 {
            let mid = (lo + hi) / 2
            if T(mid) < tau { lo = mid } else { hi = mid }
        }
        let u = (lo + hi) / 2
        let x = 3 * u * (1 - u) * ((1 - u) * 0.5 + u) + u * u * u
        // dX/du ÷ dT/du.
        let dx = 3 * (1 - u) * (1 - u) * 0.5 + 6 * u * (1 - u) * (1 - 0.5) + 3 * u * u * (1 - 1)
        let dt = 3 * (1 - u) * (1 - u) * 0.175 + 6 * u * (1 - u) * (0.35 - 0.175) + 3 * u * u * (1 - 0.35)
        return (x, dx / dt)
    }

    /// Distance and duration from Android's formulas (Float80); position and velocity along
    /// the spline against the Float80 reference within 1e-12 relative; distance = 0.35·|v|·T.
    func testSplineFlingAgainstFloat80() throws {
        var random = SeededRandom(seed: 0x666c_696e_67)
        for density in [1.0, 2.0, 2.625, 3.0, 0.75] {
            let fling = try SplineFling(density: density)
            let c = Float80(9.80665) * Float80(39.37) * (160 * Float80(density)) * Float80(0.84)
            let d = logl(0.78) / logl(0.9)
            for _ in 0 ..< 100 {
                let v = random.uniform(-12000, 12000)
                let l = logl(0.35 * Float80(abs(v)) / (0.015 * c))
                let duration = expl(l / (d - 1)), distance = 0.015 * c * expl(d / (d - 1) * l) * (v < 0 ? -1 : 1)
                XCTAssertLessThan(relative(fling.duration(initialVelocity: v), duration), 1e-12, "density \(density) v \(v)")
                XCTAssertLessThan(relative(fling.distance(initialVelocity: v), distance), 1e-12)
                XCTAssertEqual(abs(fling.distance(initialVelocity: v)),
                               0.35 * abs(v) * fling.duration(initialVelocity: v), accuracy: 1e-9 * abs(Double(distance)))
                for _ in 0 ..< 10 {
                    let tau = random.uniform(0.001, 0.999)
                    let t = tau * fling.duration(initialVelocity: v)
                    let (s, slope) = splineReference(Float80(tau))
                    XCTAssertLessThan(relative(fling.offset(at: t, initialVelocity: v), distance * s), 1e-12, "τ \(tau)")
                    XCTAssertLessThan(relative(fling.velocity(at: t, initialVelocity: v), distance / duration * slope), 1e-11)
                }
            }
        }
        let fling = try SplineFling(density: 1)
        XCTAssertEqual(fling.velocity(at: 0, initialVelocity: 1000), 1000, accuracy: 1e-9,
                       "starts at the release velocity (the spline's initial slope is 1 / 0.35)")
        XCTAssertEqual(fling.offset(at: 10, initialVelocity: 1000), fling.distance(initialVelocity: 1000))
        XCTAssertEqual(fling.velocity(at: 10, initialVelocity: 1000), 0)
        XCTAssertEqual(fling.duration(initialVelocity: 0), 0)
        XCTAssertThrowsError(try SplineFling(density: 0))
        XCTAssertThrowsError(try SplineFling(density: 1, friction: .nan))
        XCTAssertThrowsError(try SplineFling(density: 1e306)) { XCTAssertEqual(($0 as? ParameterError)?.parameter, "density") }
        XCTAssertThrowsError(try SplineFling(density: 1e-320))
        // Extreme finite velocities and times give finite results.
        for v in [Double.greatestFiniteMagnitude, -1e-300, 5e-324] {
            for t in [0, 1e-300, 0.5, 1e300] {
                XCTAssertTrue(fling.offset(at: t, initialVelocity: v).isFinite)
                XCTAssertTrue(fling.velocity(at: t, initialVelocity: v).isFinite)
            }
        }
    }

    /// Android samples the spline into a 101-entry `float` table by bisection to 1e-5 and
    /// interpolates it linearly: rebuilt here as Android builds it, it stays within 1e-4 of
    /// the distance (as a fraction of the fling's) from the curve, and its piecewise-constant
    /// velocity within 9 % of the curve's (where the curve's slope is above 0.05).
    func testAndroidsSplineTableStaysCloseToTheCurve() throws {
        let p1: Float = 0.175, p2: Float = 0.35, startTension: Float = 0.5
        var table = [Float](repeating: 1, count: 101)
        var xMin: Float = 0
        for i in 0 ..< 100 {
            let alpha = Float(i) / 100
            var xMax: Float = 1, x: Float = 0, coef: Float = 0
            while true {
                x = xMin + (xMax - xMin) / 2
                coef = 3 * x * (1 - x)
                let tx = coef * ((1 - x) * p1 + x * p2) + x * x * x
                if Double(abs(tx - alpha)) < 1e-5 { break }
                if tx > alpha { xMax = x } else { xMin = x }
            }
            table[i] = coef * ((1 - x) * startTension + x) + x * x * x
        }
        var worstPosition = 0.0, worstVelocity = 0.0
        for k in 0 ... 9999 {
            let tau = Double(k) / 10000
            let index = Int(100 * tau)
            let velocityCoef = Double(table[index + 1] - table[index]) * 100
            let position = Double(table[index]) + (tau - Double(index) / 100) * velocityCoef
            worstPosition = max(worstPosition, abs(position - SplineFling.curve.value(at: tau)))
            let slope = SplineFling.curve.slope(at: tau)
            if slope > 0.05 { worstVelocity = max(worstVelocity, abs(velocityCoef - slope) / slope) }
        }
        print("Android's spline table against the curve: position \(worstPosition) of the distance, velocity \(worstVelocity) relative")
        XCTAssertLessThan(worstPosition, 1e-4)
        XCTAssertLessThan(worstVelocity, 0.09)
    }

    // MARK: Rubber band

    /// UIKit's curve: values published for d = 960, the slope 0.55 at the edge, the limit d,
    /// symmetry, the exact inverse (Float80), and refusals.
    func testRubberBand() throws {
        let band = RubberBand.uiScrollView
        for (x, y) in [(5.0, 2.74), (10, 5.47), (100, 52.02), (400, 178.98), (960, 340.65)] {
            XCTAssertEqual(try band.offset(forOverscroll: x, dimension: 960), y, accuracy: 0.005, "x = \(x)")
        }
        XCTAssertEqual(try band.offset(forOverscroll: 1e-9, dimension: 500) / 1e-9, 0.55, accuracy: 1e-9)
        // Where d / (1 + d / (c·x)) rounds to d itself, the largest double below it: the result
        // stays inside (−d, d), so the inverse takes it back.
        for x in [1e17, 1e19, 1e300, Double.greatestFiniteMagnitude] {
            let y = try band.offset(forOverscroll: x, dimension: 500)
            XCTAssertEqual(y, x >= 1e19 ? (500.0).nextDown : y, "x = \(x)")
            XCTAssertLessThan(y, 500)
            XCTAssertEqual(try band.offset(forOverscroll: -x, dimension: 500), -y)
            let back = try band.overscroll(forOffset: y, dimension: 500)
            XCTAssertTrue(back.isFinite && back > 1e16, "the inverse of \(y): \(back)")
        }
        XCTAssertEqual(try band.offset(forOverscroll: -100, dimension: 960), -(try band.offset(forOverscroll: 100, dimension: 960)))
        var random = SeededRandom(seed: 0x7275_6262)
        for _ in 0 ..< 1000 {
            let d = random.logUniform(1, 5000), x = random.logUniform(1e-6, 1e7) * (random.chance(0.5) ? -1 : 1)
            let y = try band.offset(forOverscroll: x, dimension: d)
            let expected = Float80(0.55) * Float80(abs(x)) * Float80(d) / (Float80(0.55) * Float80(abs(x)) + Float80(d))
            XCTAssertLessThan(relative(abs(y), expected), 1e-15)
            if abs(y) < d * (1 - 1e-9) {
                let back = try band.overscroll(forOffset: y, dimension: d)
                XCTAssertEqual(back, x, accuracy: 1e-9 * abs(x) * max(1, d / (d - abs(y))), "inverse at \(x)")
            }
        }
        XCTAssertEqual(try band.clamp(50, to: 0 ... 100, dimension: 400), 50)
        XCTAssertEqual(try band.clamp(-40, to: 0 ... 100, dimension: 400), try band.offset(forOverscroll: -40, dimension: 400))
        XCTAssertEqual(try band.clamp(140, to: 0 ... 100, dimension: 400), 100 + (try band.offset(forOverscroll: 40, dimension: 400)))
        // A position farther past the edge than a double's difference can hold shows as far as
        // any, just short of the edge plus the dimension.
        XCTAssertEqual(try band.clamp(-1e308, to: 1e308 ... 1e308, dimension: 400), 1e308 - (400.0).nextDown)
        XCTAssertEqual(try band.clamp(1.7e308, to: -1.7e308 ... -1e308, dimension: 400), -1e308 + (400.0).nextDown)
        XCTAssertEqual(try band.clamp(-1.7e308, to: 1.7e308 ... 1.7e308, dimension: 1e308), 1.7e308 - (1e308).nextDown)
        XCTAssertEqual(try band.clamp(-.greatestFiniteMagnitude, to: -1e308 ... 0, dimension: 1e308),
                       -1e308 + (try band.offset(forOverscroll: -.greatestFiniteMagnitude + 1e308, dimension: 1e308)))
        XCTAssertThrowsError(try band.clamp(-1, to: 0 ... 1, dimension: 0)) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "dimension")
        }
        XCTAssertEqual(try band.clamp(0.5, to: 0 ... 1, dimension: 0), 0.5, "inside, the dimension is not used")
        XCTAssertThrowsError(try band.overscroll(forOffset: 960, dimension: 960)) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "offset")
        }
        XCTAssertThrowsError(try band.offset(forOverscroll: 1, dimension: 0)) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "dimension")
        }
        XCTAssertThrowsError(try band.offset(forOverscroll: .nan, dimension: 1))
        XCTAssertThrowsError(try RubberBand(coefficient: 0))
    }

    // MARK: Snapping

    /// The target nearest the projected resting point wins (not the nearest to the release),
    /// and the spring gets UIKit's normalised velocity, 0 at zero distance.
    func testSnappingProjectsAndHandsTheVelocityToASpring() throws {
        let spring = try Spring(dampingRatio: 1, response: 0.4)
        let targets = [0.0, 300, 600]
        // Released at 100 moving +1500/s: rests at 100 + 1500 / (−1000 ln 0.998) ≈ 849 → 600.
        let fast = try Snapping.decide(position: 100, velocity: 1500, targets: targets, spring: spring)
        XCTAssertEqual(fast.index, 2)
        XCTAssertEqual(fast.projectedPosition, 100 + 1500 / (-1000 * Double.log(0.998)), accuracy: 1e-9)
        XCTAssertEqual(fast.normalizedVelocity, 1500.0 / 500, accuracy: 1e-15)
        XCTAssertEqual(fast.duration, spring.settlingDuration(initialVelocity: 3))
        // Slowly: the nearest.
        XCTAssertEqual(try Snapping.decide(position: 100, velocity: 50, targets: targets, spring: spring).index, 0)
        // The UIKit projection picks by its own resting point.
        let fluid = try Snapping.decide(position: 100, velocity: 300, targets: targets, decay: .fast, spring: spring)
        XCTAssertEqual(fluid.index, 0, "100 + 300/10.05 ≈ 130 → 0")
        XCTAssertEqual(try Snapping.normalizedVelocity(800, from: 300, to: 300), 0, "zero distance")
        XCTAssertEqual(try Snapping.normalizedVelocity(-800, from: 300, to: 100), 4)
        XCTAssertThrowsError(try Snapping.decide(position: 0, velocity: 1, targets: [], spring: spring)) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "targets")
        }
        XCTAssertThrowsError(try Snapping.decide(position: 0, velocity: 1, targets: [1, .nan], spring: spring)) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "targets[1]")
        }
        // 2-D: the projected point picks the corner; per-axis normalised velocity.
        let corners = [Point(x: 0, y: 0), Point(x: 400, y: 0), Point(x: 0, y: 800), Point(x: 400, y: 800)]
        let d2 = try Snapping.decide(position: Point(x: 50, y: 100), velocity: Point(x: 1000, y: 1400), targets: corners,
                                     spring: spring)
        XCTAssertEqual(d2.index, 3)
        XCTAssertEqual(d2.normalizedVelocity.x, 1000.0 / 350, accuracy: 1e-15)
        XCTAssertEqual(d2.normalizedVelocity.y, 1400.0 / 700, accuracy: 1e-15)
        XCTAssertEqual(d2.duration, max(spring.settlingDuration(initialVelocity: 1000.0 / 350),
                                        spring.settlingDuration(initialVelocity: 2)))
    }
}
