import Kinetic
import KineticUI
import XCTest

/// An animator keeps its first animations block and first completion handler inline and the
/// rest in arrays, and an animations block captures each property's lanes inline (up to six):
/// the order, the counts and the comparisons must be those of plain arrays.
@MainActor
final class AnimatorBookkeepingTests: EngineTestCase {
    func testEveryCompletionHandlerRunsOnceInOrderWhateverTheirNumber() async throws {
        for count in [0, 1, 2, 3, 17] {
            let v = box()
            var log: [Int] = []
            let a = try PropertyAnimator(duration: 0.25, curve: .linear, engine: engine) { v.alpha = 0 }
            for k in 0 ..< count {
                a.addCompletion { position in
                    XCTAssertEqual(position, .end)
                    log.append(k)
                }
            }
            try a.startAnimation()
            try advance(to: engine.clock.now + 0.5)
            XCTAssertEqual(log, Array(0 ..< count), "\(count) handlers")
            // The handlers ran and were dropped: the next run calls only the one added for it.
            try a.addAnimations { v.alpha = 1 }
            a.addCompletion { _ in log.append(-1) }
            try a.startAnimation()
            try advance(to: engine.clock.now + 0.5)
            XCTAssertEqual(log, Array(0 ..< count) + [-1], "\(count) handlers, second run")
        }
    }

    func testPendingBlocksApplyInTheOrderAddedWithTheirOwnDelayFactors() async throws {
        let v = box(), w = box("w"), u = box("u")
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = 0 }
        try a.addAnimations({ w.alpha = 0 }, delayFactor: 0.5)
        try a.addAnimations({ u.alpha = 0 }, delayFactor: 0.25)
        try a.addAnimations { v.alpha = 0.5 }
        try a.startAnimation()
        // The last block wrote v last: its value is the model value.
        XCTAssertEqual(v.model.alpha, 0.5)
        try advance(to: 0.75)
        // v: 1 → 0, then 0 → 0.5, both over the whole run: 1 − 0.75 + 0.5 · 0.75.
        XCTAssertEqual(v.presentation.alpha, 0.625, accuracy: 1e-12)
        // w over [0.5, 1] of the run, u over [0.25, 1].
        XCTAssertEqual(w.presentation.alpha, 0.5, accuracy: 1e-12)
        XCTAssertEqual(u.presentation.alpha, 1.0 / 3, accuracy: 1e-12)
        try advance(to: 1.5)
        XCTAssertEqual([v.presentation.alpha, w.presentation.alpha, u.presentation.alpha], [0.5, 0, 0])
    }

    func testAWriteOfAnEqualValueAnimatesNothingSignedZeroIncluded() async throws {
        let v = box()
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            v.bounds = Rect(x: -0.0, y: 0, width: 100, height: 100)  // −0 equals the +0 it replaces
            v.alpha = 1
            v.center = Point(x: 50, y: 50)
        }
        try a.startAnimation()
        XCTAssertEqual(engine.animatedLaneCount, 0)
        // Keyframes compare whole properties: a keyframe that writes an equal value adds no track.
        for mode in [KeyframeAnimationOptions.calculationModeLinear, .calculationModeDiscrete, .calculationModePaced, .calculationModeCubic] {
            try View.animateKeyframes(withDuration: 1, options: mode, engine: engine, animations: {
                try View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) {
                    v.bounds = Rect(x: -0.0, y: 0, width: 100, height: 100)
                }
                try View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { v.alpha = 1 }
            })
            XCTAssertEqual(engine.animatedLaneCount, 0, "\(mode)")
        }
    }

    func testAllSixTransformLanesAndOnlyTheChangedBoundsLanesAnimate() async throws {
        let v = box()
        let target = Transform2D(a: 2, b: 0.5, c: -0.3, d: 1.5, tx: 10, ty: -20)
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            v.transform = target
            v.bounds = Rect(x: 0, y: 0, width: 40, height: 100)
        }
        try a.startAnimation()
        XCTAssertEqual(engine.animatedLaneCount, 6 + 1)
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.bounds.size.width, 70, accuracy: 1e-12)
        XCTAssertEqual(v.presentation.transform.tx, 5, accuracy: 1e-12)
        try advance(to: 1)
        let shown = v.presentation.transform
        for (got, want) in zip([shown.a, shown.b, shown.c, shown.d, shown.tx, shown.ty],
                               [target.a, target.b, target.c, target.d, target.tx, target.ty]) {
            XCTAssertEqual(got, want, accuracy: 1e-12)
        }
    }

    /// An animator's blocks are captured by reused captures (one per nesting depth), which
    /// must keep none of the views they saw alive.
    func testReusedBlockCapturesKeepNoViewAlive() async throws {
        weak var outerView: View?
        weak var innerView: View?
        do {
            let outer = box("outer"), inner = box("inner")
            outerView = outer
            innerView = inner
            let engine = self.engine!
            let a = try PropertyAnimator(duration: 0.5, curve: .linear, engine: engine) {
                outer.alpha = 0
                // A block inside a block: the inner animator's capture is one level deeper.
                let b = try? PropertyAnimator(duration: 0.5, curve: .linear, engine: engine) { inner.alpha = 0 }
                try? b?.startAnimation()
                outer.center = Point(x: 300, y: 0)
            }
            try a.startAnimation()
            XCTAssertEqual(engine.animatedLaneCount, 4, "outer alpha and centre, inner alpha")
            try advance(to: 1)
            XCTAssertEqual(engine.animatedLaneCount, 0)
            XCTAssertEqual([outer.presentation.alpha, inner.presentation.alpha], [0, 0])
        }
        XCTAssertNil(outerView)
        XCTAssertNil(innerView)
    }

    /// A view whose deinit starts an animator, released when a reused capture is emptied
    /// (the block wrote it an equal value: captured, but no lane block keeps it): the nested
    /// animator takes the same capture, which must not still hold the outer block's changes.
    func testAViewDeinitThatStartsAnAnimatorWhileACaptureIsEmptied() async throws {
        let engine = self.engine!
        let moved = box("moved"), other = box("other")
        var inner: PropertyAnimator?
        var deinitRan = false
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            let temporary = DeinitHookView()
            temporary.onDeinit = {
                deinitRan = true
                inner = try? PropertyAnimator(duration: 1, curve: .linear, engine: engine) { other.alpha = 0.5 }
                try? inner?.startAnimation()
            }
            temporary.alpha = 1
            moved.alpha = 0
        }
        try a.startAnimation()
        XCTAssertTrue(deinitRan)
        try advance(to: 0.5)
        XCTAssertEqual(moved.presentation.alpha, 0.5, accuracy: 1e-12)
        XCTAssertEqual(other.presentation.alpha, 0.75, accuracy: 1e-12)
        XCTAssertEqual(engine.animatedLaneCount, 2)
        try advance(to: 2)
        XCTAssertEqual([moved.presentation.alpha, other.presentation.alpha], [0, 0.5])
    }

    /// A block that changes many views, then small ones: every change is captured once and
    /// the views are freed afterwards.
    func testALargeBlockThenSmallOnesCaptureEveryChangeAndFreeTheViews() async throws {
        weak var firstOfMany: View?
        do {
            let views = (0 ..< 300).map { box("v\($0)") }
            firstOfMany = views[0]
            let engine = self.engine!
            let big = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
                for (k, v) in views.enumerated() { v.alpha = Double(k % 7) / 10 }
            }
            try big.startAnimation()
            XCTAssertEqual(engine.animatedLaneCount, views.count, "every alpha moves from 1")
            for k in 0 ..< 3 {
                let small = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { views[k].center = Point(x: 0, y: 0) }
                try small.startAnimation()
            }
            XCTAssertEqual(engine.animatedLaneCount, views.count + 3 * 2)
            try advance(to: 2)
            for (k, v) in views.enumerated() { XCTAssertEqual(v.presentation.alpha, Double(k % 7) / 10) }
        }
        XCTAssertNil(firstOfMany)
    }
}

/// A view that runs a closure from its deinit (user code inside a release).
final class DeinitHookView: View {
    var onDeinit: (() -> Void)?
    isolated deinit { onDeinit?() }
}
