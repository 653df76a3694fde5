import Kinetic
import KineticUI
import XCTest

/// `View.animateKeyframes`: the curve over the whole animation, inheritance, and the paced,
/// cubic and cubic-paced calculation modes.
@MainActor
final class KeyframeCalculationModeTests: EngineTestCase {
    /// UIKit's keyframe animations ease in and out over their whole duration by default: a
    /// keyframe over the first tenth of 10 s takes longer than 1 s (the `CAKeyframeAnimation`
    /// UIKit builds has keyTimes (0, 0.1, 1), values (1, 0, 0), timingFunction
    /// easeInEaseOut).
    func testTheDefaultCurveEasesTheWholeAnimation() async throws {
        let v = box()
        try View.animateKeyframes(withDuration: 10, engine: engine, animations: {
            try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.1) { v.alpha = 0 }
        })
        let ease = CubicBezier.easeInOut
        for t in [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0] {
            try advance(to: t)
            let expected = 1 - min(ease.value(at: t / 10) / 0.1, 1)
            XCTAssertEqual(v.presentation.alpha, expected, accuracy: 1e-12, "t = \(t)")
            if t == 1 { XCTAssertGreaterThan(v.presentation.alpha, 0.5, "not done after 1 s: the curve is not linear") }
        }
        XCTAssertGreaterThan(engine.activeAnimatorCount, 0)
    }

    /// The other curves are selected by the curve bits, as UIKit reads them from cast
    /// `UIView.AnimationOptions`.
    func testCurveOptionsSelectTheCurve() async throws {
        for (option, curve) in [(KeyframeAnimationOptions.curveEaseIn, CubicBezier.easeIn),
                                (.curveEaseOut, .easeOut), (.curveLinear, .linear)] {
            engine = AnimationEngine()
            let v = box()
            try View.animateKeyframes(withDuration: 1, options: option, engine: engine, animations: {
                try View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { v.center.x = 250 }
            })
            XCTAssertEqual(option.curve, AnimationOptions(rawValue: option.rawValue).curve)
            for t in [0.25, 0.6, 0.8, 0.95] {
                try advance(to: t)
                let expected = 50 + 200 * min(max((curve.value(at: t) - 0.5) / 0.5, 0), 1)
                XCTAssertEqual(v.presentation.center.x, expected, accuracy: 1e-9, "\(option) t = \(t)")
            }
        }
    }

    /// Inside a linear animation block, a keyframe animation inherits the curve (the common
    /// way to make keyframes linear in UIKit) and, unless it overrides it, the duration.
    func testNestedKeyframesInheritTheCurveAndTheDuration() async throws {
        let v = box(), w = box("w")
        try View.animate(withDuration: 2, options: .curveLinear, engine: engine, animations: {
            try? View.animateKeyframes(withDuration: 2, options: .overrideInheritedDuration, engine: self.engine, animations: {
                try View.addKeyframe(withRelativeStartTime: 0.9, relativeDuration: 0.1) { v.center.y = 200 }
            })
            try? View.animateKeyframes(withDuration: 8, engine: self.engine, animations: {
                try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { w.alpha = 0 }
            })
        })
        try advance(to: 0.5)
        XCTAssertEqual(w.presentation.alpha, 0.5, accuracy: 1e-12, "2 s inherited, linear")
        try advance(to: 1.9)
        XCTAssertEqual(v.presentation.center.y, 50 + 150 * 0.5, accuracy: 1e-9, "linear inside its window")
        try advance(to: 2)
        XCTAssertEqual(v.presentation.center.y, 200)
        XCTAssertEqual(engine.activeAnimatorCount, 0)
    }

    /// Paced: each property moves along the polyline through its keyframes' values at a
    /// constant speed over the whole duration, whatever the relative times; the completion
    /// comes at the end with every value exact.
    func testPacedMovesAtConstantSpeedIgnoringTheRelativeTimes() async throws {
        let v = box()
        var finished: Bool?
        let points = [Point(x: 50, y: 50), Point(x: 350, y: 50), Point(x: 350, y: 150), Point(x: 150, y: 150)]
        try View.animateKeyframes(withDuration: 1, options: [.calculationModePaced, .curveLinear], engine: engine,
                                  animations: {
                                      try View.addKeyframe(withRelativeStartTime: 0.1, relativeDuration: 0.1) { v.center = points[1] }
                                      try View.addKeyframe(withRelativeStartTime: 0.3, relativeDuration: 0.6) { v.center = points[2] }
                                      try View.addKeyframe(withRelativeStartTime: 0.9, relativeDuration: 0.05) { v.center = points[3] }
                                  }, completion: { finished = $0 })
        XCTAssertEqual(v.model.center, points[3])
        // Lengths 300, 100, 200: a third of the time per 200 points.
        for (t, x, y) in [(0.25, 200.0, 50.0), (0.5, 350, 50), (7.0 / 12, 350, 100), (2.0 / 3, 350, 150), (0.75, 300, 150),
                          (0.99, 156, 150)] {
            try advance(to: t)
            XCTAssertEqual(v.presentation.center.x, x, accuracy: 1e-9, "t = \(t)")
            XCTAssertEqual(v.presentation.center.y, y, accuracy: 1e-9, "t = \(t)")
        }
        XCTAssertNil(finished)
        try advance(to: 1)
        XCTAssertEqual(v.presentation.center, points[3])
        XCTAssertEqual(finished, true)
        XCTAssertEqual(engine.animatedLaneCount, 0)
    }

    /// Cubic: the property follows the Catmull-Rom spline through the values UIKit puts in
    /// its `CAKeyframeAnimation` (the value before at 0, the value held to each keyframe's
    /// start, each keyframe's value at its end, held to 1), at their times.
    func testCubicFollowsTheSplineThroughUIKitsKeyframeValues() async throws {
        let v = box()
        try View.animateKeyframes(withDuration: 1, options: [.calculationModeCubic, .curveLinear], engine: engine,
                                  animations: {
                                      try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.25) { v.center.x = 150 }
                                      try View.addKeyframe(withRelativeStartTime: 0.4, relativeDuration: 0.3) { v.center.x = 0 }
                                      try View.addKeyframe(withRelativeStartTime: 0.4, relativeDuration: 0.6) { v.alpha = 0.5 }
                                  })
        // The tracks UIKit builds for center.x and alpha.
        let x = try KeyframeTrack(values: [50.0, 150, 150, 0, 0], keyTimes: [0, 0.25, 0.4, 0.7, 1], calculationMode: .cubic)
        let alpha = try KeyframeTrack(values: [1.0, 1, 0.5], keyTimes: [0, 0.4, 1], calculationMode: .cubic)
        for j in 1 ..< 50 {
            let t = Double(j) / 50
            try advance(to: t)
            XCTAssertEqual(v.presentation.center.x, x.value(at: t), accuracy: 1e-9, "t = \(t)")
            XCTAssertEqual(v.presentation.alpha, alpha.value(at: t), accuracy: 1e-12, "t = \(t)")
            XCTAssertEqual(v.presentation.center.y, 50, "an untouched lane stays")
        }
        // It passes through each keyframe's value at its end, and overshoots between.
        engine = AnimationEngine()
        let w = box()
        try View.animateKeyframes(withDuration: 1, options: [.calculationModeCubic, .curveLinear], engine: engine,
                                  animations: {
                                      try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.25) { w.center.x = 150 }
                                      try View.addKeyframe(withRelativeStartTime: 0.4, relativeDuration: 0.3) { w.center.x = 0 }
                                  })
        try advance(to: 0.25)
        XCTAssertEqual(w.presentation.center.x, 150, accuracy: 1e-9)
        try advance(to: 0.7)
        XCTAssertEqual(w.presentation.center.x, 0, accuracy: 1e-9)
        try advance(to: 0.85)
        XCTAssertLessThan(w.presentation.center.x, 0, "the spline overshoots the held value")
    }

    /// Cubic paced: the spline traversed at a constant speed — equal times, equal distances.
    func testCubicPacedTraversesTheSplineAtConstantSpeed() async throws {
        let v = box()
        try View.animateKeyframes(withDuration: 1, options: [.calculationModeCubicPaced, .curveLinear], engine: engine,
                                  animations: {
                                      try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) {
                                          v.center = Point(x: 250, y: 120)
                                      }
                                      try View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) {
                                          v.center = Point(x: 90, y: 300)
                                      }
                                  })
        var previous = Point(x: 50, y: 50)
        var steps: [Double] = []
        for j in 1 ... 400 {
            try advance(to: Double(j) / 400)
            let p = v.presentation.center
            steps.append(((p.x - previous.x) * (p.x - previous.x) + (p.y - previous.y) * (p.y - previous.y)).squareRoot())
            previous = p
        }
        XCTAssertEqual(previous, Point(x: 90, y: 300))
        let mean = steps.reduce(0, +) / Double(steps.count)
        for (j, step) in steps.enumerated() {
            XCTAssertEqual(step, mean, accuracy: mean * 2e-3, "step \(j)")
        }
    }

    /// With `.beginFromCurrentState`, a cubic keyframe animation starts from the value on
    /// screen (no jump) and still ends at its last keyframe.
    func testCubicFromCurrentStateStartsWhereTheViewIs() async throws {
        let v = box()
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: { v.center.x = 250 })
        try advance(to: 0.5)
        try View.animateKeyframes(withDuration: 1, options: [.calculationModeCubic, .beginFromCurrentState, .curveLinear],
                                  engine: engine, animations: {
                                      try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { v.center.x = 300 }
                                      try View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { v.center.x = 0 }
                                  })
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-9, "no jump")
        let x = try KeyframeTrack(values: [150.0, 300, 0], keyTimes: [0, 0.5, 1], calculationMode: .cubic)
        for t in [0.6, 0.75, 1.0, 1.2, 1.45] {
            try advance(to: t)
            XCTAssertEqual(v.presentation.center.x, x.value(at: t - 0.5), accuracy: 1e-9, "t = \(t)")
        }
        try advance(to: 1.5)
        XCTAssertEqual(v.presentation.center.x, 0)
    }

    /// Autoreversing paced keyframes retrace the path, then snap to the end values.
    func testAutoreversingPacedKeyframesRetraceThePath() async throws {
        let v = box()
        var finished: Bool?
        try View.animateKeyframes(withDuration: 1, options: [.calculationModePaced, .curveLinear, .autoreverse],
                                  engine: engine, animations: {
                                      try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.2) { v.center.x = 250 }
                                      try View.addKeyframe(withRelativeStartTime: 0.2, relativeDuration: 0.8) { v.center.y = 250 }
                                  }, completion: { finished = $0 })
        for (t, x, y) in [(0.25, 150.0, 50.0), (0.75, 250, 150), (1.25, 250, 150), (1.75, 150, 50)] {
            try advance(to: t)
            XCTAssertEqual(v.presentation.center.x, x, accuracy: 1e-9, "t = \(t)")
            XCTAssertEqual(v.presentation.center.y, y, accuracy: 1e-9, "t = \(t)")
        }
        try advance(to: 2)
        XCTAssertEqual(finished, true)
        XCTAssertEqual(v.presentation.center, Point(x: 250, y: 250))
    }

    /// A calculation mode UIKit does not define is refused, naming it; nothing animates.
    func testAnUndefinedCalculationModeThrows() async throws {
        let v = box()
        XCTAssertThrowsError(try View.animateKeyframes(withDuration: 1, options: KeyframeAnimationOptions(rawValue: 5 << 10),
                                                       engine: engine, animations: {
                                                           try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) {
                                                               v.alpha = 0
                                                           }
                                                       })) { error in
            guard case .invalidParameter(let p) = error as? AnimatorError else { return XCTFail("\(error)") }
            XCTAssertEqual(p.parameter, "options.calculationMode")
        }
        XCTAssertEqual(v.alpha, 1)
        XCTAssertEqual(engine.activeAnimatorCount, 0)
    }
}
