import Kinetic
import KineticUI
import XCTest

/// Block-based and keyframe animations nested in other animation blocks. UIKit's animations
/// are additive (iOS 8 and later): each write inside a block adds an animation from
/// (old − new) to 0 with that block's timing, the model takes the new value at once, and the
/// presentation is the model plus the live animations' offsets.
@MainActor
final class NestedAnimationTests: EngineTestCase {
    /// A nested `View.animate` that writes a property the outer block already wrote: the outer
    /// block animates 1 → 0.5 and the inner one 0.5 → 0; the presentation starts at 1.
    func testNestedAnimateOfAPropertyTheOuterBlockWroteAddsOnlyItsOwnStep() async throws {
        let v = box()
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            v.alpha = 0.5
            try? View.animate(withDuration: 1, engine: self.engine, animations: { v.alpha = 0 })  // inherits 1 s, linear
        })
        XCTAssertEqual(v.alpha, 0, "the model holds the last value at once")
        XCTAssertEqual(v.presentation.alpha, 1, accuracy: 1e-9, "nothing has moved yet")
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-9)
        // The engine's model of the lane is the view's: writing the value the model already
        // holds, outside any block, moves nothing.
        v.alpha = 0
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-9, "a write of the same model value moves nothing")
        try advance(to: 0.75)
        XCTAssertEqual(v.presentation.alpha, 0.25, accuracy: 1e-9)
        try advance(to: 1)
        XCTAssertEqual(v.presentation.alpha, 0, accuracy: 1e-9)
    }

    /// The same with an inner block of its own duration: outer 1 s linear (1 → 0.5), inner 4 s
    /// linear (0.5 → 0, the curve inherited from the outer block).
    func testNestedAnimateWithItsOwnDurationOnTheSameProperty() async throws {
        let v = box()
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            v.alpha = 0.5
            try? View.animate(withDuration: 4, options: .overrideInheritedDuration, engine: self.engine,
                              animations: { v.alpha = 0 })
        })
        // presentation = 0 + 0.5·(1 − t/1, clamped) + 0.5·(1 − t/4)
        try expectAlpha(v, [(0.0, 1.0), (0.5, 0.6875), (1.0, 0.375), (2.0, 0.25), (4.0, 0.0)])
    }

    /// Writes before, inside and after a nested block: the outer block's two steps (1 → 0.5,
    /// then 0 → 0.8) both take its timing, the nested one (0.5 → 0) its own.
    func testWritesAroundANestedBlockEachAnimateTheirOwnStep() async throws {
        let v = box()
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            v.alpha = 0.5
            try? View.animate(withDuration: 2, options: [.overrideInheritedDuration, .overrideInheritedCurve, .curveLinear],
                              engine: self.engine, animations: { v.alpha = 0 })
            v.alpha = 0.8
        })
        XCTAssertEqual(v.alpha, 0.8)
        // presentation = 0.8 + (1 − 0.5 + 0 − 0.8)·(1 − t) + (0.5 − 0)·(1 − t/2)
        try expectAlpha(v, [(0.0, 1.0), (0.5, 0.8 - 0.15 + 0.375), (1.0, 0.8 + 0.25), (2.0, 0.8)])
    }

    /// A block-based animation of its own inside a property animator's block, on a property
    /// that block already wrote: the animator animates 1 → 0.5 over its second, the nested
    /// animation 0.5 → 0 over two seconds.
    func testAnimateOfItsOwnInsideAPropertyAnimatorBlockOnTheSameProperty() async throws {
        let (v, animator) = try animatorWithNestedAnimation()
        // presentation = 0 + 0.5·(1 − t) + 0.5·(1 − t/2)
        try expectAlpha(v, [(0.0, 1.0), (0.5, 0.625), (1.0, 0.25), (2.0, 0.0)])
        XCTAssertEqual(animator.state, .inactive)
    }

    /// The animator of the test above, stopped half way: its own step stays where it is
    /// (0.25 above the value the nested animation goes to), with no jump, and the nested
    /// animation runs on; stopped and finished at the end instead, its step is done.
    func testStoppingTheOuterAnimatorKeepsOnlyItsOwnStep() async throws {
        for finishing in [false, true] {
            let (v, animator) = try animatorWithNestedAnimation()
            let start = engine.clock.now
            try advance(to: start + 0.5)
            XCTAssertEqual(v.presentation.alpha, 0.625, accuracy: 1e-9)
            if finishing {
                try animator.stopAnimation(false)
                try animator.finishAnimation(at: .end)
                XCTAssertEqual(v.presentation.alpha, 0.375, accuracy: 1e-9, "its step done: the nested one's half left")
            } else {
                try animator.stopAnimation(true)
                XCTAssertEqual(v.presentation.alpha, 0.625, accuracy: 1e-9, "no jump")
            }
            try advance(to: start + 2)
            XCTAssertEqual(v.presentation.alpha, finishing ? 0 : 0.25, accuracy: 1e-9, "finishing: \(finishing)")
            XCTAssertEqual(v.model.alpha, finishing ? 0 : 0.25, accuracy: 1e-9, "finishing: \(finishing)")
        }
    }

    /// A keyframe animation whose block writes `alpha` directly (over the whole duration) and
    /// then in a keyframe over the second half: the direct step is 1 → 0.5, the keyframe's
    /// 0.5 → 0. At 25 % only the direct step moves.
    func testDirectWriteInAKeyframeBlockAnimatesOnlyItsOwnStep() async throws {
        let v = box()
        try View.animateKeyframes(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            v.alpha = 0.5
            try? View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { v.alpha = 0 }
        })
        try advance(to: 0.25)
        XCTAssertEqual(v.presentation.alpha, 0.875, accuracy: 1e-9)
        try advance(to: 0.75)
        XCTAssertEqual(v.presentation.alpha, 0.125 + 0.25, accuracy: 1e-9, "the direct step 3/4 done, the keyframe half")
        try advance(to: 1)
        XCTAssertEqual(v.presentation.alpha, 0, accuracy: 1e-9)
    }

    // MARK: Inherited from a property animator

    /// Only the curve is overridden: the nested animation keeps the animator's 1 s (not its
    /// own 4 s) with its own ease-in curve. Apple: without `overrideInheritedDuration` "the
    /// animation inherits the remaining duration of the in-flight animation, if any".
    func testNestedAnimateOverridingOnlyTheCurveInheritsTheAnimatorsDuration() async throws {
        let v = box()
        let animator = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            try? View.animate(withDuration: 4, options: [.overrideInheritedCurve, .curveEaseIn], engine: self.engine,
                              animations: { v.center.x = 150 })
        }
        try animator.startAnimation()
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.center.x, 50 + 100 * CubicBezier.easeIn.value(at: 0.5), accuracy: 1e-6)
        try advance(to: 1)
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-9, "done with the animator's second")
    }

    /// Only the duration is overridden: the nested animation runs its own 4 s along the
    /// animator's curve (linear here, not the default ease in-out). Apple: without
    /// `overrideInheritedCurve` "the animation inherits the curve of the in-flight animation".
    func testNestedAnimateOverridingOnlyTheDurationInheritsTheAnimatorsCurve() async throws {
        let v = box()
        let animator = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            try? View.animate(withDuration: 4, options: .overrideInheritedDuration, engine: self.engine,
                              animations: { v.center.x = 450 })
        }
        try animator.startAnimation()
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.center.x, 50 + 400 * 0.125, accuracy: 1e-6, "linear: 0.5 s of 4 s")
        try advance(to: 2)
        XCTAssertEqual(v.presentation.center.x, 50 + 400 * 0.5, accuracy: 1e-6)
    }

    /// A spring animator's timing is inherited as it is: the nested animation (an option of
    /// its own, so not joined) moves as a property of the animator does.
    func testNestedAnimateInheritsASpringAnimatorsTiming() async throws {
        let joined = box("joined"), nested = box("nested")
        let animator = try PropertyAnimator(duration: 0.8, dampingRatio: 0.5, engine: engine) {
            joined.center.x = 250
            try? View.animate(withDuration: 4, options: .beginFromCurrentState, engine: self.engine,
                              animations: { nested.center.x = 250 })
        }
        try animator.startAnimation()
        for k in 1 ... 60 {
            try step()
            XCTAssertEqual(nested.presentation.center.x, joined.presentation.center.x, accuracy: 1e-9, "frame \(k)")
        }
    }

    /// A block added to a running animator runs over the time left; a block-based animation
    /// made in it, with no override, inherits that time and the animator's curve instead of
    /// running its own 10 s ease in-out.
    func testAnimateNestedInABlockAddedWhileRunningInheritsTheRemainingDuration() async throws {
        let v = box()
        let animator = try PropertyAnimator(duration: 2, curve: .linear, engine: engine) { v.alpha = 0 }
        try animator.startAnimation()
        try advance(to: 1)
        try animator.addAnimations {
            try? View.animate(withDuration: 10, engine: self.engine, animations: { v.center.x = 150 })
        }
        try advance(to: 1.5)
        XCTAssertEqual(v.presentation.center.x, 100, accuracy: 1e-6, "half of the remaining second, linear")
        try advance(to: 2)
        XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-9, "ends with the animator")
    }

    /// A block added with a delay factor: its nested block-based and keyframe animations wait
    /// for the block's delay, then take the rest of the run, as the block's own changes do.
    func testAnimationsNestedInADelayedBlockWaitForItsDelay() async throws {
        let own = box("own"), nested = box("nested"), keyed = box("keyed")
        let animator = try PropertyAnimator(duration: 2, curve: .linear, engine: engine) { own.alpha = 0.5 }
        try animator.addAnimations({
            own.center.x = 150
            try? View.animate(withDuration: 10, options: .allowUserInteraction, engine: self.engine,
                              animations: { nested.center.x = 150 })
            try? View.animateKeyframes(withDuration: 10, options: .overrideInheritedCurve, engine: self.engine, animations: {
                try? View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { keyed.center.x = 150 }
            })
        }, delayFactor: 0.5)
        try animator.startAnimation()
        try advance(to: 0.9)
        XCTAssertEqual(own.presentation.center.x, 50, accuracy: 1e-9, "the block waits for its second")
        XCTAssertEqual(nested.presentation.center.x, 50, accuracy: 1e-9, "and so does the nested animation")
        XCTAssertEqual(keyed.presentation.center.x, 50, accuracy: 1e-9, "and the nested keyframes")
        try advance(to: 1.5)
        XCTAssertEqual(own.presentation.center.x, 100, accuracy: 1e-9)
        XCTAssertEqual(nested.presentation.center.x, 100, accuracy: 1e-9)
        XCTAssertGreaterThan(keyed.presentation.center.x, 50)
        try advance(to: 2)
        for v in [own, nested, keyed] { XCTAssertEqual(v.presentation.center.x, 150, accuracy: 1e-9, v.name ?? "") }
    }

    /// `inheritedAnimationDuration` in a property animator's blocks is what a block-based
    /// animation made there inherits: the whole duration in the blocks it starts with, the
    /// time left after the delay factor in one added half way.
    func testInheritedAnimationDurationInAnAnimatorsBlocksIsTheTimeLeft() async throws {
        let v = box()
        var seen: [Double] = []
        let animator = try PropertyAnimator(duration: 2, curve: .linear, engine: engine) {
            seen.append(View.inheritedAnimationDuration)
            v.alpha = 0
        }
        try animator.addAnimations({ seen.append(View.inheritedAnimationDuration) }, delayFactor: 0.25)
        try animator.startAnimation()
        try advance(to: 1)
        try animator.addAnimations({ seen.append(View.inheritedAnimationDuration); v.center.x = 0 }, delayFactor: 0.25)
        XCTAssertEqual(seen, [2, 1.5, 0.5])
    }

    // MARK: Each write is its own block's step

    /// A write three levels in, through a block that does not write the property: the
    /// outermost block's step is its own write only (1 → 0.8), the innermost's 0.8 → 0.
    func testAWriteThroughABlockThatDoesNotWriteThePropertyIsTheInnermostBlocksStep() async throws {
        let v = box(), w = box("w")
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            v.alpha = 0.8
            try? View.animate(withDuration: 1, engine: self.engine, animations: {
                w.center.x = 0
                try? View.animate(withDuration: 2, options: .overrideInheritedDuration, engine: self.engine,
                                  animations: { v.alpha = 0 })
            })
        })
        // presentation = 0 + 0.2·(1 − t) + 0.8·(1 − t/2)
        try expectAlpha(v, [(0.0, 1.0), (0.5, 0.7), (1.0, 0.4), (2.0, 0.0)])
    }

    /// A property animator's block writes alpha, then a keyframe animation in it writes it
    /// again: the animator's step is 1 → 0.8, the keyframes' 0.8 → 0, and the lane ends at
    /// the model.
    func testAKeyframeAnimationInAnAnimatorsBlockAddsOnlyItsOwnStep() async throws {
        let v = box()
        let animator = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            v.alpha = 0.8
            try? View.animateKeyframes(withDuration: 2, options: [.overrideInheritedDuration, .curveLinear],
                                       engine: self.engine, animations: {
                try? View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { v.alpha = 0 }
            })
        }
        try animator.startAnimation()
        try expectAlpha(v, [(0.0, 1.0), (0.5, 0.7), (1.0, 0.4), (2.0, 0.0)])
        XCTAssertEqual(v.model.alpha, 0)
    }

    /// A nested animation that is refused (its view belongs to another engine's animation):
    /// the outer block's step is its own write's, 1 → 0.5, over its time; the refused move
    /// (0.5 → 0) is made by no animation, so the view takes the model value, 0, when the
    /// outer animation ends (as a write no animation makes; Kinetic does not hand it to the
    /// outer block).
    func testARefusedNestedAnimationLeavesItsWriteToTheOuterBlock() async throws {
        let v = box()
        let other = AnimationEngine()
        try View.animate(withDuration: 1, options: .curveLinear, engine: other, animations: { v.center.x = 0 })
        try View.animate(withDuration: 1, options: .curveLinear, engine: other, animations: {
            v.alpha = 0.5
            try? View.animate(withDuration: 1, engine: self.engine, animations: { v.alpha = 0 })
        })
        XCTAssertEqual(v.model.alpha, 0, "the nested write happened")
        try other.clock.advance(to: 0.5)
        XCTAssertEqual(v.presentation.alpha, 0.75, accuracy: 1e-9, "the outer step only")
        try other.clock.advance(to: 2)
        XCTAssertEqual(v.presentation.alpha, 0, accuracy: 1e-9)
    }

    /// An outer block that begins from the current state keeps the lane on its model: the
    /// nested step is frozen where it starts and the outer block carries the view to the
    /// model value.
    func testAnOuterBlockFromTheCurrentStateEndsAtTheModel() async throws {
        let v = box()
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: { v.alpha = 0.2 })
        try advance(to: 0.5)
        try View.animate(withDuration: 1, options: [.curveLinear, .beginFromCurrentState], engine: engine, animations: {
            v.alpha = 0.5
            try? View.animate(withDuration: 1, engine: self.engine, animations: { v.alpha = 0 })
        })
        XCTAssertEqual(v.presentation.alpha, 0.6, accuracy: 1e-9, "no jump: the value shown")
        try advance(to: 3)
        XCTAssertEqual(v.presentation.alpha, 0, accuracy: 1e-9)
        XCTAssertEqual(v.model.alpha, 0)
    }

    /// A write with animations disabled inside a block, on a property being animated: it
    /// moves the model (and the animations with it) by its own move only, and the block's
    /// step is its own write's.
    func testAWriteWithoutAnimationInsideABlockMovesByItsOwnStep() async throws {
        let v = box()
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: { v.alpha = 1 })
        v.alpha = 1
        try View.animate(withDuration: 2, options: .curveLinear, engine: engine, animations: { v.alpha = 0.9 })
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            v.alpha = 0.5
            View.performWithoutAnimation { v.alpha = 0 }
        })
        // The first animation (0.9 from 1, over 2 s) keeps its offset: 0.1·(1 − t/2); the
        // block's step 0.9 → 0.5 its: 0.4·(1 − t); the write without animation moves the
        // model to 0.
        try expectAlpha(v, [(0.0, 0.5), (0.5, 0.075 + 0.2), (1.0, 0.05), (2.0, 0.0)])
        XCTAssertEqual(v.model.alpha, 0)
    }

    /// A write with animations disabled after the block's own, on a property with no
    /// animation yet: the block's step (1 → 0.5) starts from where the write put the view
    /// (0.5 → 0), with no jump at its end; the same through a nested block, and on an idle
    /// lane of a property another lane of which is animating.
    func testAWriteWithoutAnimationBeforeTheLaneExistsMovesTheStart() async throws {
        let v = box(), w = box("w")
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            v.alpha = 0.5
            View.performWithoutAnimation { v.alpha = 0 }
        })
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            w.alpha = 0.5
            View.performWithoutAnimation { w.alpha = 0.3 }
            try? View.animate(withDuration: 1, engine: self.engine, animations: { w.alpha = 0 })
        })
        let u = box("u")
        try View.animate(withDuration: 2, options: .curveLinear, engine: engine, animations: {
            u.bounds = Rect(x: 0, y: 0, width: 200, height: 100)
        })
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            u.bounds = Rect(x: 0, y: 0, width: 200, height: 80)
            View.performWithoutAnimation { u.bounds = Rect(x: 0, y: 0, width: 200, height: 100) }
        })
        XCTAssertEqual(v.presentation.alpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(w.presentation.alpha, 0.8, accuracy: 1e-9)
        XCTAssertEqual(u.presentation.bounds.size.height, 120, accuracy: 1e-9)
        try advance(to: 0.5)
        XCTAssertEqual(v.presentation.alpha, 0.25, accuracy: 1e-9)
        XCTAssertEqual(w.presentation.alpha, 0.4, accuracy: 1e-9)
        XCTAssertEqual(u.presentation.bounds.size.height, 110, accuracy: 1e-9)
        try advance(to: 1)
        XCTAssertEqual(v.presentation.alpha, 0, accuracy: 1e-9)
        XCTAssertEqual(w.presentation.alpha, 0, accuracy: 1e-9)
        XCTAssertEqual(u.presentation.bounds.size.height, 100, accuracy: 1e-9)
        try advance(to: 3)
        XCTAssertEqual(v.presentation.alpha, 0)
        XCTAssertEqual(w.presentation.alpha, 0)
        XCTAssertEqual(u.presentation.bounds.size.height, 100)
    }

    /// A keyframe animation whose block writes the property in a keyframe first and
    /// directly after it: the lane starts from the value before both (1), each step moves
    /// its own part (1 → 0.5 in the keyframe, 0.5 → 0.2 directly, both over the whole
    /// animation here), and the lane ends at the model.
    func testAKeyframeWrittenBeforeADirectWriteStartsFromTheValueBeforeBoth() async throws {
        let v = box()
        try View.animateKeyframes(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            try? View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { v.alpha = 0.5 }
            v.alpha = 0.2
        })
        try expectAlpha(v, [(0.0, 1.0), (0.5, 0.6), (1.0, 0.2)])
        v.alpha = 0.2
        XCTAssertEqual(v.presentation.alpha, 0.2, accuracy: 1e-9, "a write of the model value moves nothing")
    }

    /// Advances the clock to each time and checks `v`'s presented alpha there.
    private func expectAlpha(_ v: View, _ expected: [(time: Double, alpha: Double)],
                             file: StaticString = #filePath, line: UInt = #line) throws {
        for (t, alpha) in expected {
            try advance(to: t)
            XCTAssertEqual(v.presentation.alpha, alpha, accuracy: 1e-9, "t = \(t)", file: file, line: line)
        }
    }

    /// A started 1 s linear animator whose block writes alpha 0.5 and makes an animation of
    /// its own (2 s, linear) to 0.
    private func animatorWithNestedAnimation() throws -> (View, PropertyAnimator) {
        let v = box()
        let animator = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            v.alpha = 0.5
            try? View.animate(withDuration: 2, options: [.overrideInheritedDuration, .overrideInheritedCurve, .curveLinear],
                              engine: self.engine, animations: { v.alpha = 0 })
        }
        try animator.startAnimation()
        return (v, animator)
    }
}
