import Kinetic
import KineticUI
import XCTest

/// The headless `View`: tree, geometry, model vs presentation, additive model writes,
/// non-finite writes, snapshots.
@MainActor
final class ViewTests: ReportingEngineTestCase {
    // MARK: Tree

    func testSubviewOrderingAndReparenting() async throws {
        let root = box("root"), a = box("a"), b = box("b"), c = box("c"), d = box("d")
        root.addSubview(a)
        root.addSubview(b)
        root.insertSubview(c, at: 0)
        XCTAssertEqual(root.subviews.map(\.name), ["c", "a", "b"])
        root.insertSubview(d, aboveSubview: c)
        XCTAssertEqual(root.subviews.map(\.name), ["c", "d", "a", "b"])
        root.insertSubview(d, belowSubview: c)
        XCTAssertEqual(root.subviews.map(\.name), ["d", "c", "a", "b"], "moving a child keeps one copy")
        root.bringSubviewToFront(d)
        XCTAssertEqual(root.subviews.map(\.name), ["c", "a", "b", "d"])
        root.sendSubviewToBack(b)
        XCTAssertEqual(root.subviews.map(\.name), ["b", "c", "a", "d"])
        root.insertSubview(a, at: 99)
        XCTAssertEqual(root.subviews.map(\.name), ["b", "c", "d", "a"], "index clamped")
        root.insertSubview(c, at: -5)
        XCTAssertEqual(root.subviews.map(\.name), ["c", "b", "d", "a"])
        XCTAssertTrue(a.superview === root)

        // Adding to another parent removes it from the first.
        b.addSubview(a)
        XCTAssertTrue(a.superview === b)
        XCTAssertEqual(root.subviews.map(\.name), ["c", "b", "d"])
        XCTAssertTrue(a.isDescendant(of: root))
        XCTAssertTrue(a.isDescendant(of: b))
        XCTAssertTrue(a.isDescendant(of: a))
        XCTAssertFalse(root.isDescendant(of: a))
        XCTAssertFalse(c.isDescendant(of: b))

        // Bringing or sending a non-child does nothing.
        root.bringSubviewToFront(a)
        XCTAssertTrue(a.superview === b)
        a.removeFromSuperview()
        XCTAssertNil(a.superview)
        XCTAssertEqual(b.subviews.count, 0)
        XCTAssertFalse(a.isDescendant(of: root))
        a.removeFromSuperview()
        XCTAssertNil(a.superview)
    }

    /// A view cannot become its own subview, nor a subview of one of its descendants (that
    /// would make a cycle).
    func testAddingAnAncestorAsSubviewIsIgnored() async throws {
        let root = box("root"), child = box("child"), grandchild = box("grandchild")
        root.addSubview(child)
        child.addSubview(grandchild)
        root.addSubview(root)
        grandchild.addSubview(root)
        child.addSubview(child)
        XCTAssertNil(root.superview)
        XCTAssertEqual(grandchild.subviews.count, 0)
        XCTAssertEqual(root.subviews.map(\.name), ["child"])
        XCTAssertEqual(child.subviews.map(\.name), ["grandchild"])
        XCTAssertFalse(root.isDescendant(of: grandchild))
        XCTAssertTrue(grandchild.isDescendant(of: root))
    }

    // MARK: Geometry

    func testFrameCenterAndBoundsRelations() async throws {
        let v = View(frame: Rect(x: 10, y: 20, width: 100, height: 50))
        XCTAssertEqual(v.center, Point(x: 60, y: 45))
        XCTAssertEqual(v.bounds, Rect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(v.alpha, 1)
        XCTAssertEqual(v.transform, .identity)
        XCTAssertNil(v.backgroundColor)

        v.center = Point(x: 100, y: 100)
        XCTAssertEqual(v.frame, Rect(x: 50, y: 75, width: 100, height: 50))
        v.bounds = Rect(x: 5, y: 7, width: 40, height: 60)
        XCTAssertEqual(v.frame, Rect(x: 80, y: 70, width: 40, height: 60), "bounds size about the centre; origin ignored")
        XCTAssertEqual(v.center, Point(x: 100, y: 100))
        v.frame = Rect(x: 0, y: 0, width: 20, height: 30)
        XCTAssertEqual(v.center, Point(x: 10, y: 15))
        XCTAssertEqual(v.bounds, Rect(x: 5, y: 7, width: 20, height: 30), "frame keeps the bounds origin")
    }

    func testFrameOfATransformedViewIsTheBoundingBox() async throws {
        let v = View(frame: Rect(x: 50, y: 75, width: 100, height: 50)) // centre (100, 100)
        v.transform = Transform2D(rotationAngle: .pi / 2)
        let f = v.frame
        XCTAssertEqual(f.origin.x, 75, accuracy: 1e-9)
        XCTAssertEqual(f.origin.y, 50, accuracy: 1e-9)
        XCTAssertEqual(f.size.width, 50, accuracy: 1e-9)
        XCTAssertEqual(f.size.height, 100, accuracy: 1e-9)
        XCTAssertEqual(v.bounds.size, Size(width: 100, height: 50), "bounds are not transformed")
        XCTAssertEqual(v.center, Point(x: 100, y: 100))

        let square = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        square.transform = Transform2D(rotationAngle: .pi / 4)
        XCTAssertEqual(square.frame.size.width, 100 * 2.0.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(square.frame.origin.x, 50 - 50 * 2.0.squareRoot(), accuracy: 1e-9)
        square.transform = Transform2D(scaleX: 2, y: 0.5).concatenating(Transform2D(translationX: 10, y: -20))
        XCTAssertEqual(square.frame.origin.x, -40, accuracy: 1e-9)
        XCTAssertEqual(square.frame.origin.y, 5, accuracy: 1e-9)
        XCTAssertEqual(square.frame.size.width, 200, accuracy: 1e-9)
        XCTAssertEqual(square.frame.size.height, 50, accuracy: 1e-9)
        XCTAssertEqual(square.model.frame, square.frame)
    }

    // MARK: Model and presentation

    func testModelIsTheEndValueAndPresentationFollowsTheFrame() async throws {
        let v = box()
        XCTAssertEqual(v.presentation, v.model, "nothing animates: presentation = model")
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            v.frame = Rect(x: 100, y: 200, width: 50, height: 20)
            v.backgroundColor = Color(red: 1, green: 0, blue: 0)
            v.transform = Transform2D(rotationAngle: 1)
        }
        try a.startAnimation()
        XCTAssertEqual(v.model.center, Point(x: 125, y: 210), "the frame set in the block, at once")
        XCTAssertEqual(v.model.bounds.size, Size(width: 50, height: 20))
        XCTAssertEqual(v.model.backgroundColor, Color(red: 1, green: 0, blue: 0))
        try advance(to: 0.5)
        let p = v.presentation
        XCTAssertEqual(p.center.x, 50 + (125 - 50) * 0.5, accuracy: 1e-9)
        XCTAssertEqual(p.center.y, 50 + (210 - 50) * 0.5, accuracy: 1e-9)
        XCTAssertEqual(p.bounds.size.width, 75, accuracy: 1e-9)
        XCTAssertEqual(p.bounds.size.height, 60, accuracy: 1e-9)
        // A nil colour animates as clear.
        XCTAssertEqual(p.backgroundColor, Color(red: 0.5, green: 0, blue: 0, alpha: 0.5))
        // The rotation turns (half the angle), it does not shrink.
        let half = Transform2D(rotationAngle: 0.5)
        XCTAssertEqual(p.transform.a, half.a, accuracy: 1e-9)
        XCTAssertEqual(p.transform.b, half.b, accuracy: 1e-9)
        XCTAssertEqual(p.transform.c, half.c, accuracy: 1e-9)
        XCTAssertEqual(p.transform.d, half.d, accuracy: 1e-9)
        try advance(to: 1)
        XCTAssertEqual(v.presentation, v.model)
    }

    /// A write outside an animations block to an animated property: the animation keeps its
    /// offset relative to the new model value — the presentation moves by the same amount at
    /// once and the animation ends at the new model value.
    func testModelWriteWhileAnimatingShiftsTheAnimationAdditively() async throws {
        let v = box()
        var ended: ViewAnimatingPosition?
        let a = try PropertyAnimator(duration: 1, curve: .easeInOut, engine: engine) { v.center.x = 250 }
        a.addCompletion { ended = $0 }
        try a.startAnimation()
        try advance(to: 0.5)
        let before = v.presentation.center.x
        v.center = Point(x: 350, y: 80)
        XCTAssertEqual(v.model.center, Point(x: 350, y: 80))
        XCTAssertEqual(v.presentation.center.x, before + 100, accuracy: 1e-9, "shifted by the same amount")
        XCTAssertEqual(v.presentation.center.y, 80, "an unanimated lane takes the value at once")
        try advance(to: 0.75)
        XCTAssertEqual(v.presentation.center.x, 150 + 200 * CubicBezier.easeInOut.value(at: 0.75), accuracy: 1e-9)
        try advance(to: 1)
        XCTAssertEqual(ended, .end)
        XCTAssertEqual(v.presentation.center, Point(x: 350, y: 80))
        // Writing an unanimated property during the animation takes effect at once.
        let w = box("w")
        let b = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { w.alpha = 0 }
        try b.startAnimation()
        w.center.x = 500
        XCTAssertEqual(w.presentation.center.x, 500)
        XCTAssertEqual(w.presentation.alpha, 1)
    }

    func testNonFiniteWritesAreIgnoredAndReported() async throws {
        let v = box()
        let before = v.model
        v.alpha = .nan
        v.center = Point(x: .infinity, y: 0)
        v.bounds = Rect(x: 0, y: 0, width: .nan, height: 1)
        v.transform = Transform2D(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        v.backgroundColor = Color(red: .nan, green: 0, blue: 0)
        XCTAssertEqual(v.model, before)
        XCTAssertEqual(reported, [
            .nonFiniteValue(view: "box", property: "alpha"), .nonFiniteValue(view: "box", property: "center"),
            .nonFiniteValue(view: "box", property: "bounds"), .nonFiniteValue(view: "box", property: "transform"),
            .nonFiniteValue(view: "box", property: "backgroundColor"),
        ])
        XCTAssertEqual(reported[0].description, "ignored a non-finite value written to alpha of view box")
        // Inside an animations block too: nothing is animated.
        reported = []
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) { v.alpha = -.infinity }
        try a.startAnimation()
        XCTAssertEqual(reported, [.nonFiniteValue(view: "box", property: "alpha")])
        XCTAssertEqual(v.alpha, 1)
        XCTAssertEqual(engine.animatedLaneCount, 0)
        // The frame setter reports through the properties it writes.
        reported = []
        let unnamed = View()
        unnamed.frame = Rect(x: .nan, y: 0, width: 10, height: 10)
        XCTAssertEqual(reported.first, .nonFiniteValue(view: nil, property: "center"))
        XCTAssertTrue(reported.first?.description.contains("(unnamed)") ?? false)
        XCTAssertEqual(unnamed.bounds.size, Size(width: 10, height: 10), "the finite part is written")
    }

    // MARK: Snapshots

    func testSnapshotCopiesModelOrPresentationValuesAndTheSubtree() async throws {
        let root = box("root", frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let child = box("child", frame: Rect(x: 10, y: 10, width: 20, height: 20))
        let grandchild = box("grandchild")
        root.addSubview(child)
        child.addSubview(grandchild)
        root.tag = 7
        child.isHidden = true
        root.backgroundColor = Color(red: 0, green: 0, blue: 1)
        let a = try PropertyAnimator(duration: 1, curve: .linear, engine: engine) {
            root.alpha = 0
            child.center.x = 120
        }
        try a.startAnimation()
        try advance(to: 0.25)

        let after = root.snapshotView(afterScreenUpdates: true)
        XCTAssertEqual(after.model, root.model)
        XCTAssertEqual(after.alpha, 0)
        XCTAssertEqual(after.subviews.first?.center.x, 120)

        let now = root.snapshotView(afterScreenUpdates: false)
        XCTAssertEqual(now.model, root.presentation)
        XCTAssertEqual(now.alpha, 0.75, accuracy: 1e-12)
        XCTAssertEqual(now.subviews.first?.center.x ?? 0, 20 + 100 * 0.25, accuracy: 1e-9)
        XCTAssertEqual(now.backgroundColor, Color(red: 0, green: 0, blue: 1))

        for snap in [after, now] {
            XCTAssertEqual(snap.name, "snapshot of root")
            XCTAssertEqual(snap.tag, 7)
            XCTAssertNil(snap.superview)
            XCTAssertEqual(snap.subviews.map(\.name), ["snapshot of child"])
            XCTAssertEqual(snap.subviews.first?.isHidden, true)
            XCTAssertEqual(snap.subviews.first?.subviews.map(\.name), ["snapshot of grandchild"])
            XCTAssertFalse(snap.subviews.first === child)
            XCTAssertEqual(snap.presentation, snap.model, "a snapshot is not animated")
        }
        // Independent of the original.
        now.alpha = 0.1
        XCTAssertEqual(root.alpha, 0)
        try advance(to: 0.5)
        XCTAssertEqual(now.subviews.first?.center.x ?? 0, 45, accuracy: 1e-9, "the snapshot does not follow the animation")
        XCTAssertEqual(View().snapshotView(afterScreenUpdates: true).name, "snapshot")
    }

    // MARK: Layout

    /// A size change marks the view as needing layout, so `layoutIfNeeded()` inside an
    /// animations block lays the children out for the new size, and their frames animate
    /// (UIKit's standard way to animate a relayout). A move alone does not, nor does a
    /// reordering of subviews; adding or removing a subview does.
    func testLayoutIfNeededInsideABlockLaysOutAViewWhoseSizeChanged() async throws {
        let container = HalfWidthContainer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        container.layoutIfNeeded()
        XCTAssertEqual(container.layoutCount, 1)
        XCTAssertEqual(container.child.frame.size.width, 50)
        container.layoutIfNeeded()
        XCTAssertEqual(container.layoutCount, 1, "nothing changed")
        container.center = Point(x: 80, y: 80)
        container.layoutIfNeeded()
        XCTAssertEqual(container.layoutCount, 1, "a move keeps the layout")
        try View.animate(withDuration: 1, options: .curveLinear, engine: engine, animations: {
            container.frame = Rect(x: 0, y: 0, width: 200, height: 100)
            container.layoutIfNeeded()
        })
        XCTAssertEqual(container.layoutCount, 2, "layoutSubviews ran again for the new size")
        XCTAssertEqual(container.child.frame.size.width, 100, "the child's model frame follows at once")
        try advance(to: 0.5)
        XCTAssertEqual(container.child.presentation.frame.size.width, 75, accuracy: 1e-9, "and animates")
        let other = View()
        container.addSubview(other)
        container.layoutIfNeeded()
        XCTAssertEqual(container.layoutCount, 3, "a subview added")
        container.sendSubviewToBack(other)
        container.layoutIfNeeded()
        XCTAssertEqual(container.layoutCount, 3, "a reordering keeps the layout")
        other.removeFromSuperview()
        container.layoutIfNeeded()
        XCTAssertEqual(container.layoutCount, 4, "a subview removed")
    }
}

/// A container that lays its first child out over its left half.
@MainActor
private final class HalfWidthContainer: View {
    let child = View()
    private(set) var layoutCount = 0

    override init(frame: Rect) {
        super.init(frame: frame)
        addSubview(child)
    }

    override func layoutSubviews() {
        layoutCount += 1
        child.frame = Rect(x: 0, y: 0, width: bounds.size.width / 2, height: bounds.size.height)
    }
}
