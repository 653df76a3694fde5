import Kinetic
import KineticUI
import XCTest

/// `CubicTimingParameters` and `SpringTimingParameters` (reference §1.5): control points,
/// whose duration wins, and per-axis initial velocity.
@MainActor
final class TimingParametersTests: EngineTestCase {
    // MARK: Cubic

    func testDefaultCubicIsCoreAnimationsDefaultCurve() async throws {
        let p = CubicTimingParameters()
        XCTAssertEqual(p.controlPoint1, Point(x: 0.25, y: 0.1))
        XCTAssertEqual(p.controlPoint2, Point(x: 0.25, y: 1))
        XCTAssertEqual(p.timingCurveType, .builtin)
        XCTAssertNil(p.springTimingParameters)
        // An animator with it follows that Bézier.
        let reference = try CubicBezier(0.25, 0.1, 0.25, 1)
        let v = box()
        let a = try PropertyAnimator(duration: 1, timingParameters: p, engine: engine)
        try a.addAnimations { v.alpha = 0 }
        try a.startAnimation()
        for t in [0.1, 0.3, 0.5, 0.9] {
            try advance(to: t)
            XCTAssertEqual(v.presentation.alpha, 1 - reference.value(at: t), accuracy: 1e-12, "t = \(t)")
        }
    }

    func testAnimationCurvePresetsHaveUIKitsControlPoints() async throws {
        let expected: [(AnimationCurve, Point, Point)] = [
            (.easeIn, Point(x: 0.42, y: 0), Point(x: 1, y: 1)),
            (.easeOut, Point(x: 0, y: 0), Point(x: 0.58, y: 1)),
            (.easeInOut, Point(x: 0.42, y: 0), Point(x: 0.58, y: 1)),
            (.linear, Point(x: 0, y: 0), Point(x: 1, y: 1)),
        ]
        for (curve, c1, c2) in expected {
            let p = CubicTimingParameters(animationCurve: curve)
            XCTAssertEqual(p.controlPoint1, c1, "\(curve)")
            XCTAssertEqual(p.controlPoint2, c2, "\(curve)")
            XCTAssertEqual(p.animationCurve, curve)
            XCTAssertEqual(p.timingCurveType, .builtin)
            let reference = try CubicBezier(c1.x, c1.y, c2.x, c2.y)
            for x in stride(from: 0.0, through: 1, by: 0.125) {
                XCTAssertEqual(p.curve.value(at: x), reference.value(at: x), accuracy: 1e-12, "\(curve) at \(x)")
            }
        }
        XCTAssertEqual(AnimationCurve.allCases.map(\.rawValue), [0, 1, 2, 3], "UIViewAnimationCurve's raw values")
    }

    /// An animator made with a named curve reports that curve's parameters (made when read,
    /// not stored), and runs its lanes along it: the same values as an animator given the
    /// same parameters as a provider.
    func testNamedCurveAnimatorReportsAndRunsItsParameters() async throws {
        for curve in AnimationCurve.allCases {
            let named = try PropertyAnimator(duration: 1, curve: curve, engine: engine)
            let p = try XCTUnwrap(named.timingParameters as? CubicTimingParameters, "\(curve)")
            XCTAssertEqual(p, CubicTimingParameters(animationCurve: curve), "\(curve)")
            XCTAssertEqual(named.timingParameters.timingCurveType, .builtin)
            XCTAssertNil(named.timingParameters.springTimingParameters)
            let provided = try PropertyAnimator(duration: 1, timingParameters: CubicTimingParameters(animationCurve: curve),
                                                engine: engine)
            let a = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            let b = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            try named.addAnimations { a.alpha = 0.25 }
            try provided.addAnimations { b.alpha = 0.25 }
            try named.startAnimation()
            try provided.startAnimation()
            for _ in 0 ..< 7 {
                try step()
                XCTAssertEqual(a.presentation.alpha.bitPattern, b.presentation.alpha.bitPattern, "\(curve)")
            }
            XCTAssertLessThan(a.presentation.alpha, 1, "\(curve): moving after 7 frames")
            try step(130)
            XCTAssertEqual(a.presentation.alpha, 0.25)
            XCTAssertEqual(b.presentation.alpha, 0.25)
        }
    }

    func testCustomControlPointsDriveTheAnimator() async throws {
        let p = try CubicTimingParameters(controlPoint1: Point(x: 0.1, y: 0.9), controlPoint2: Point(x: 0.2, y: 1.3))
        XCTAssertEqual(p.timingCurveType, .cubic)
        let reference = try CubicBezier(0.1, 0.9, 0.2, 1.3)
        let v = box()
        let a = try PropertyAnimator(duration: 2, controlPoint1: Point(x: 0.1, y: 0.9), controlPoint2: Point(x: 0.2, y: 1.3),
                                     engine: engine) { v.center.x = 250 }
        try a.startAnimation()
        var overshoot = false
        for k in 1 ..< 120 {
            let t = Double(k) / 60
            try advance(to: t)
            XCTAssertEqual(v.presentation.center.x, 50 + 200 * reference.value(at: t / 2), accuracy: 1e-9)
            overshoot = overshoot || v.presentation.center.x > 250
        }
        XCTAssertTrue(overshoot, "y > 1 control points overshoot")
    }

    func testBadControlPointsThrowNamingTheValue() async throws {
        let cases: [(Point, Point, String)] = [
            (Point(x: -0.1, y: 0), Point(x: 1, y: 1), "x1"), (Point(x: 0, y: 0), Point(x: 1.5, y: 1), "x2"),
            (Point(x: .nan, y: 0), Point(x: 1, y: 1), "x1"), (Point(x: 0, y: .infinity), Point(x: 1, y: 1), "y1"),
        ]
        for (c1, c2, name) in cases {
            XCTAssertThrowsError(try CubicTimingParameters(controlPoint1: c1, controlPoint2: c2)) { error in
                guard case .invalidParameter(let p) = error as? AnimatorError else { return XCTFail("\(error)") }
                XCTAssertEqual(p.parameter, name)
                XCTAssertTrue("\(error)".contains(name), "\(error)")
            }
            XCTAssertThrowsError(try PropertyAnimator(duration: 1, controlPoint1: c1, controlPoint2: c2, engine: engine))
        }
        XCTAssertThrowsError(try PropertyAnimator(duration: -1, curve: .linear, engine: engine)) { error in
            guard case .invalidParameter(let p) = error as? AnimatorError else { return XCTFail("\(error)") }
            XCTAssertEqual(p.parameter, "duration")
        }
    }

    // MARK: Springs

    func testDefaultSpringIsMass3Stiffness1000Damping500() async throws {
        let p = SpringTimingParameters()
        XCTAssertEqual(p.dampingRatio, 500 / (2 * 3000.0.squareRoot()), accuracy: 1e-12)
        XCTAssertEqual(p.dampingRatio, 4.564, accuracy: 5e-4)
        XCTAssertEqual(p.initialVelocity, .zero)
        XCTAssertTrue(p.determinesDuration)
        XCTAssertEqual(p.timingCurveType, .spring)
        XCTAssertNil(p.cubicTimingParameters)
        guard case .physical(let spring) = p.specification else { return XCTFail("not physical") }
        XCTAssertEqual([spring.mass, spring.stiffness, spring.damping], [3, 1000, 500])
    }

    /// A damping-ratio spring is scaled to the animator's duration: it completes at
    /// `duration`, following the spring that settles then.
    func testDampingRatioSpringRunsForTheAnimatorsDuration() async throws {
        for (ratio, duration) in [(0.3, 0.7), (1.0, 1.5), (2.0, 0.5)] {
            engine = AnimationEngine()
            let v = box()
            var ended: ViewAnimatingPosition?
            let a = try PropertyAnimator(duration: duration, dampingRatio: ratio, engine: engine) { v.center.x = 250 }
            a.addCompletion { ended = $0 }
            try a.startAnimation()
            let reference = try Spring(settlingDuration: duration, dampingRatio: ratio)
            for t in stride(from: 0.05, to: duration, by: 0.05) {
                try advance(to: t)
                XCTAssertEqual(v.presentation.center.x, 50 + 200 * reference.value(at: t), accuracy: 1e-9, "ζ \(ratio) t \(t)")
            }
            XCTAssertNil(ended)
            try advance(to: duration)
            XCTAssertEqual(ended, .end, "ζ \(ratio)")
            XCTAssertEqual(v.presentation.center.x, 250)
        }
    }

    /// A physical spring (mass/stiffness/damping, or duration/bounce) runs for its own
    /// settling time; the animator's duration is ignored.
    func testPhysicalSpringsRunForTheirOwnSettlingTime() async throws {
        let cases: [(SpringTimingParameters, Spring)] = [
            (try SpringTimingParameters(mass: 1, stiffness: 100, damping: 10), try Spring(mass: 1, stiffness: 100, damping: 10)),
            (try SpringTimingParameters(duration: 0.5, bounce: 0.3), try Spring(duration: 0.5, bounce: 0.3)),
            (SpringTimingParameters(), try Spring(mass: 3, stiffness: 1000, damping: 500)),
        ]
        for (parameters, spring) in cases {
            engine = AnimationEngine()
            let settle = spring.settlingDuration()
            XCTAssertGreaterThan(settle, 0.1)
            XCTAssertTrue(parameters.determinesDuration)
            let v = box()
            var ended: ViewAnimatingPosition?
            let a = try PropertyAnimator(duration: 10, timingParameters: parameters, engine: engine)
            try a.addAnimations { v.alpha = 0 }
            a.addCompletion { ended = $0 }
            try a.startAnimation()
            XCTAssertEqual(a.duration, 10, "duration reads back as given")
            try advance(to: settle / 2)
            XCTAssertEqual(v.presentation.alpha, 1 - spring.value(at: settle / 2), accuracy: 1e-9, "\(spring)")
            XCTAssertEqual(a.fractionComplete, 0.5, accuracy: 1e-12)
            try advance(to: settle * (1 - 1e-6))
            XCTAssertNil(ended, "\(spring)")
            try advance(to: settle * (1 + 1e-6))
            XCTAssertEqual(ended, .end, "\(spring): ends at its settling time \(settle), not at 10 s")
        }
    }

    func testBadSpringValuesThrowNamingTheValue() async throws {
        let cases: [(String, () throws -> SpringTimingParameters)] = [
            ("dampingRatio", { try SpringTimingParameters(dampingRatio: 0) }),
            ("dampingRatio", { try SpringTimingParameters(dampingRatio: .nan) }),
            ("mass", { try SpringTimingParameters(mass: 0, stiffness: 100, damping: 10) }),
            ("stiffness", { try SpringTimingParameters(mass: 1, stiffness: -1, damping: 10) }),
            ("damping", { try SpringTimingParameters(mass: 1, stiffness: 100, damping: 0) }),
            ("damping", { try SpringTimingParameters(mass: 1, stiffness: 100, damping: .infinity) }),
            ("duration", { try SpringTimingParameters(duration: 0, bounce: 0) }),
            ("bounce", { try SpringTimingParameters(duration: 0.5, bounce: 1) }),
            ("initialVelocity.dx", { try SpringTimingParameters(dampingRatio: 1, initialVelocity: Vector(dx: .nan, dy: 0)) }),
            ("initialVelocity.dy", {
                try SpringTimingParameters(mass: 1, stiffness: 100, damping: 10, initialVelocity: Vector(dx: 0, dy: .infinity))
            }),
        ]
        for (name, make) in cases {
            XCTAssertThrowsError(try make()) { error in
                guard case .invalidParameter(let p) = error as? AnimatorError else { return XCTFail("\(error)") }
                XCTAssertEqual(p.parameter, name)
            }
        }
        XCTAssertThrowsError(try PropertyAnimator(duration: 1, dampingRatio: -0.5, engine: engine))
    }

    /// Vertical lanes (centre y) use `dy`, horizontal ones `dx`: different velocities give
    /// different progress on the two axes, each the spring's motion with its own velocity.
    func testInitialVelocityIsPerAxis() async throws {
        let spring = try Spring(mass: 1, stiffness: 200, damping: 20)
        let velocity = Vector(dx: 8, dy: -3)
        let parameters = try SpringTimingParameters(mass: 1, stiffness: 200, damping: 20, initialVelocity: velocity)
        let settle = max(spring.settlingDuration(initialVelocity: 8), spring.settlingDuration(initialVelocity: -3))
        let v = box()
        var ended: ViewAnimatingPosition?
        let a = try PropertyAnimator(duration: 1, timingParameters: parameters, engine: engine)
        try a.addAnimations {
            v.center = Point(x: 250, y: 250)
            v.alpha = 0
        }
        a.addCompletion { ended = $0 }
        try a.startAnimation()
        var differ = false
        for k in 1 ..< Int(settle * 60) {
            let t = Double(k) / 60
            try advance(to: t)
            let px = spring.value(at: t, initialVelocity: 8), py = spring.value(at: t, initialVelocity: -3)
            XCTAssertEqual(v.presentation.center.x, 50 + 200 * px, accuracy: 1e-9, "t \(t)")
            XCTAssertEqual(v.presentation.center.y, 50 + 200 * py, accuracy: 1e-9, "t \(t)")
            XCTAssertEqual(v.presentation.alpha, 1 - px, accuracy: 1e-9, "one-dimensional properties use dx")
            differ = differ || abs(px - py) > 0.05
        }
        XCTAssertTrue(differ)
        try advance(to: settle + 1e-9)
        XCTAssertEqual(ended, .end)
        XCTAssertEqual(v.presentation.center, Point(x: 250, y: 250))
    }

    /// With a damping-ratio spring the velocity is per second of the animator's duration.
    func testInitialVelocityOfADampingRatioSpringIsPerSecond() async throws {
        let v = box()
        let parameters = try SpringTimingParameters(dampingRatio: 0.6, initialVelocity: Vector(dx: 0, dy: 4))
        let a = try PropertyAnimator(duration: 2, timingParameters: parameters, engine: engine)
        try a.addAnimations { v.center = Point(x: 150, y: 150) }
        try a.startAnimation()
        let reference = try Spring(settlingDuration: 2, dampingRatio: 0.6)
        for t in [0.1, 0.25, 0.5, 1, 1.5] {
            try advance(to: t)
            XCTAssertEqual(v.presentation.center.x, 50 + 100 * reference.value(at: t, initialVelocity: 0), accuracy: 1e-9)
            XCTAssertEqual(v.presentation.center.y, 50 + 100 * reference.value(at: t, initialVelocity: 4), accuracy: 1e-9)
        }
    }

    /// Continuing with a physical spring takes the spring's own settling time, whatever the
    /// duration factor.
    func testContinueWithAPhysicalSpringTakesItsSettlingTime() async throws {
        let spring = try Spring(mass: 1, stiffness: 300, damping: 30)
        let v = box()
        var ended: ViewAnimatingPosition?
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0 }
        a.addCompletion { ended = $0 }
        try a.startAnimation()
        try advance(to: 0.5)
        try a.pauseAnimation()
        try a.continueAnimation(withTimingParameters: SpringTimingParameters(mass: 1, stiffness: 300, damping: 30),
                                durationFactor: 5)
        let settle = spring.settlingDuration()
        try advance(to: 0.5 + settle / 2)
        // From 0.5 towards 1 along the spring.
        XCTAssertEqual(v.presentation.alpha, 0.5 - 0.5 * spring.value(at: settle / 2), accuracy: 1e-9)
        try advance(to: 0.5 + settle * (1 - 1e-6))
        XCTAssertNil(ended)
        try advance(to: 0.5 + settle * (1 + 1e-6))
        XCTAssertEqual(ended, .end)
    }

    // MARK: Frame timing (engine)

    /// A run started on frame k of a 60 Hz clock (t = k/60) with duration 1 s must end on
    /// frame k + 60 (t = (k + 60)/60): the end time is start + duration even though
    /// `(k + 60)/60 − k/60` rounds to just below 1 for some k.
    ///
    /// ENGINE BUG (Kinetic/Engine/RunRecord.swift `advance(to:)` compares `now − start < length`):
    /// for k = 1, 5, 9, … the run ends one frame late.
    func testRunEndsOnTheFrameAtStartPlusDuration() async throws {
        var late: [Int] = []
        for k in 1 ... 40 {
            engine = AnimationEngine()
            let v = box()
            var ended = false
            try advance(to: Double(k) / 60)
            let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0 }
            a.addCompletion { _ in ended = true }
            try a.startAnimation()
            try advance(to: Double(k + 60) / 60)
            if !ended { late.append(k) }
            try advance(to: Double(k + 61) / 60)
        }
        XCTAssertEqual(late, [], "runs started on these frames ended a frame late")
    }
}
