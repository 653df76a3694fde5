import Kinetic

/// A headless view: a node of a view tree with UIKit's animatable properties, each with a
/// **model** value (what was last set, at once) and a **presentation** value (what the
/// current frame of the ``AnimationEngine`` shows).
///
/// Writing an animatable property (`frame`, `bounds`, `center`, `alpha`, `transform`,
/// `backgroundColor`) inside an animations block — of a ``PropertyAnimator`` or of
/// ``View/animate(withDuration:delay:options:engine:animations:completion:)`` — sets the
/// model at once and hands the change (old model value → new model value) to the
/// animator, as UIKit's implicit animation does. Animations of several animators on one
/// property add up. Outside an animations block a write takes effect at once; if the
/// property is being animated, the running animations keep their offsets relative to the
/// new model value (additive animation).
///
/// Non-finite values are not stored: the write is ignored and reported through
/// ``Diagnostics`` (a property setter cannot throw).
///
/// Geometry is in points; `center` is in the superview's coordinates, `bounds` in the
/// view's own; the transform applies about the centre, and `frame` is the bounding box of
/// the transformed bounds in the superview's coordinates.
@MainActor
open class View {
    // The view's bookkeeping for the engine is `@exclusivity(unchecked)`, as the engine's
    // own is: every access is a read or an instantaneous write (no access is held across a
    // call out), and the dynamic checks were a measurable share of creating and starting an
    // animator.
    /// Model lanes (see ``AnimatableProperty`` for the layout).
    @exclusivity(unchecked) var modelLanes: ModelLanes
    @exclusivity(unchecked) var hasBackgroundColor = false
    /// The front of the engine whose lanes animate this view (bound at the first animation,
    /// cleared when its last lane block is released or the engine goes away). The view keeps
    /// the front, not the engine's handle: it does not keep the engine alive.
    @exclusivity(unchecked) var laneFront: EngineFront?
    /// Per property: the engine lane block animating it, or `.none`.
    @exclusivity(unchecked) var laneBlocks = PropertyBlocks()

    /// A name for traces and CSV timelines (UIKit's `accessibilityIdentifier` plays this role).
    public var name: String?
    /// An integer tag, as UIKit's `tag`.
    public var tag = 0
    /// Hidden views are skipped by hit-testing and drawn nowhere. Not animatable: set at once.
    public var isHidden = false
    /// Whether the view takes part in hit-testing.
    public var isUserInteractionEnabled = true

    /// The parent view, if any.
    public private(set) weak var superview: View?
    /// Children in back-to-front order.
    public private(set) var subviews: [View] = []

    /// A view with the given frame (points), alpha 1, the identity transform and no colour.
    public init(frame: Rect = .zero) {
        modelLanes = ModelLanes(frame: frame)
    }

    // MARK: Model values

    /// The centre, in the superview's coordinates (points). Animatable.
    public var center: Point {
        get { Point(x: modelLanes[0], y: modelLanes[1]) }
        set { setModel(.center, PropertyLanes(newValue.x, newValue.y)) }
    }

    /// The bounds (points). Animatable.
    public var bounds: Rect {
        get { Rect(x: modelLanes[2], y: modelLanes[3], width: modelLanes[4], height: modelLanes[5]) }
        set { setModel(.bounds, PropertyLanes(newValue.origin.x, newValue.origin.y, newValue.size.width, newValue.size.height)) }
    }

    /// The frame (points, superview coordinates). Setting it sets `center` to the frame's
    /// middle and `bounds.size` to its size (with a non-identity transform, UIKit leaves the
    /// result undefined; Kinetic applies the same rule). Animatable, through `center` and
    /// `bounds`.
    public var frame: Rect {
        get { ViewGeometry.frame(center: center, size: bounds.size, transform: transform) }
        set {
            center = Point(x: newValue.origin.x + newValue.size.width / 2, y: newValue.origin.y + newValue.size.height / 2)
            var b = bounds
            b.size = newValue.size
            bounds = b
        }
    }

    /// Opacity, 0 (transparent) to 1 (opaque). Animatable.
    public var alpha: Double {
        get { modelLanes[AnimatableProperty.alpha.offset] }
        set { setModel(.alpha, PropertyLanes(newValue)) }
    }

    /// The affine transform, applied about the centre. Animatable; stored decomposed
    /// (translation, rotation, scale, shear), so the value read back is the recomposed
    /// transform (equal to what was set up to rounding), and rotations animate the shorter
    /// way round.
    public var transform: Transform2D {
        get { modelLanes[.transform].withUnsafeBufferPointer { Transform2D(lanes: $0) } }
        set {
            var new = newValue.lanes
            let old = modelLanes[.transform]
            new.withUnsafeMutableBufferPointer { n in
                old.withUnsafeBufferPointer { Transform2D.alignLanes(n, after: $0) }
            }
            new.withUnsafeBufferPointer { setModel(.transform, PropertyLanes($0)) }
        }
    }

    /// The fill colour (nil: none). Animatable; nil animates as clear.
    public var backgroundColor: Color? {
        get { hasBackgroundColor ? modelLanes[.backgroundColor].withUnsafeBufferPointer { Color(lanes: $0) } : nil }
        set {
            let lanes = newValue.map { PropertyLanes($0.red, $0.green, $0.blue, $0.alpha) } ?? PropertyLanes(0, 0, 0, 0)
            if newValue != nil, lanes.contains(where: { !$0.isFinite }) {
                Diagnostics.report(.nonFiniteValue(view: name, property: "backgroundColor"))
                return
            }
            setModel(.backgroundColor, lanes)
            hasBackgroundColor = newValue != nil
        }
    }

    /// The model values: what was last set (the end values of running animations).
    public var model: ViewValues { values(from: modelLanes, hasColor: hasBackgroundColor) }

    /// The presentation values: what the engine's current frame shows (the model values
    /// when nothing animates the view).
    public var presentation: ViewValues {
        guard let engine = laneFront, laneBlocks.anyExists else { return model }
        var lanes = modelLanes
        let colorAnimating = engine.readPresentation(of: self, into: &lanes)
        return values(from: lanes, hasColor: hasBackgroundColor || colorAnimating)
    }

    /// How fast each lane of `property`'s presentation value is changing, in its units per
    /// second (points per second for `center` and `bounds`, per second for `alpha` and the
    /// colour components), lane by lane in ``AnimatableProperty``'s layout: `center` is
    /// (x, y), `bounds` (x, y, width, height), `transform` its decomposed lanes (tx, ty, rotation,
    /// scale x, scale y, shear).
    ///
    /// It is the exact time derivative of ``presentation`` at the engine's current time (the
    /// sum over the animations on each lane of its span times the rate of its eased
    /// progress), not a difference of frames: just after an interactive transition hands a
    /// gesture's velocity to a spring, it is that velocity. Zero for a property that no
    /// running animation moves (paused, in a delay, or at rest). Always finite: where the true
    /// rate is infinite (a cubic curve with `x1 = 0` starts on a vertical tangent) it is
    /// ±`Double.greatestFiniteMagnitude`. UIKit has no public
    /// equivalent; this is Kinetic's.
    public func presentationVelocity(of property: AnimatableProperty) -> [Double] {
        guard let engine = laneFront else { return [Double](repeating: 0, count: property.laneCount) }
        return engine.presentationVelocity(of: self, property)
    }

    // MARK: Tree

    /// Adds `view` as the front-most child (removing it from its previous parent first).
    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` (clamped to `0 ... subviews.count`) among the children.
    /// Inserting the view itself or one of its ancestors (a cycle) does nothing.
    public func insertSubview(_ view: View, at index: Int) {
        guard !isDescendant(of: view) else { return }
        if view.superview === self, let i = subviews.firstIndex(where: { $0 === view }) {
            subviews.remove(at: i)
        } else {
            view.removeFromSuperview()
        }
        let added = view.superview !== self
        subviews.insert(view, at: Swift.max(0, Swift.min(index, subviews.count)))
        view.superview = self
        if added {
            // Both lay out again (UIKit's addSubview marks the view and its new superview).
            needsLayout = true
            view.needsLayout = true
        }
    }

    /// Inserts `view` just above `sibling` (at the end if `sibling` is not a child).
    public func insertSubview(_ view: View, aboveSubview sibling: View) {
        let i = subviews.firstIndex(where: { $0 === sibling }).map { $0 + 1 } ?? subviews.count
        insertSubview(view, at: i)
    }

    /// Inserts `view` just below `sibling` (at the start if `sibling` is not a child).
    public func insertSubview(_ view: View, belowSubview sibling: View) {
        insertSubview(view, at: subviews.firstIndex(where: { $0 === sibling }) ?? 0)
    }

    /// Moves a child to the front.
    public func bringSubviewToFront(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: subviews.count)
    }

    /// Moves a child to the back.
    public func sendSubviewToBack(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    /// Detaches the view from its parent.
    public func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        parent.needsLayout = true
        superview = nil
    }

    /// Whether `self` is `view` or one of its descendants.
    public func isDescendant(of view: View) -> Bool {
        var node: View? = self
        while let n = node {
            if n === view { return true }
            node = n.superview
        }
        return false
    }

    // MARK: Layout

    /// Set by ``setNeedsLayout()``, a change of size and a subview added or removed;
    /// cleared when ``layoutIfNeeded()`` runs ``layoutSubviews()``.
    private var needsLayout = true

    /// Lays out the children. The default does nothing; subclasses override it.
    open func layoutSubviews() {}

    /// Marks the view as needing layout.
    public func setNeedsLayout() { needsLayout = true }

    /// Runs ``layoutSubviews()`` now if the view needs layout (``setNeedsLayout()`` was
    /// called, its size changed, or a subview was added or removed since the last layout),
    /// then lays out the children. Called in an animations block, the frames it sets animate.
    public func layoutIfNeeded() {
        if needsLayout {
            needsLayout = false
            layoutSubviews()
        }
        for child in subviews { child.layoutIfNeeded() }
    }

    // MARK: Snapshots

    /// A copy of the view and its subtree as separate views (UIKit returns an image-backed
    /// view; headless, the copy carries the same geometry, colours and names).
    ///
    /// - Parameter afterScreenUpdates: `true` copies the model values (the state after
    ///   pending changes are drawn); `false` copies the presentation values (what the
    ///   current frame shows).
    public func snapshotView(afterScreenUpdates: Bool) -> View {
        let copy = View()
        let source = afterScreenUpdates ? model : presentation
        copy.apply(source)
        copy.name = name.map { "snapshot of \($0)" } ?? "snapshot"
        copy.tag = tag
        copy.isHidden = isHidden
        for child in subviews {
            copy.addSubview(child.snapshotView(afterScreenUpdates: afterScreenUpdates))
        }
        return copy
    }

    /// Sets every model value from `values` at once (not animated unless inside a block).
    public func apply(_ values: ViewValues) {
        center = values.center
        bounds = values.bounds
        alpha = values.alpha
        transform = values.transform
        backgroundColor = values.backgroundColor
    }

    // MARK: Internals

    /// Whether an engine other than `engine`, still alive, animates this view.
    func isBound(toEngineOtherThan engine: EngineFront) -> Bool {
        guard let front = laneFront, front !== engine else { return false }
        return front.isAlive
    }

    private func values(from lanes: ModelLanes, hasColor: Bool) -> ViewValues {
        let t = lanes[.transform].withUnsafeBufferPointer { Transform2D(lanes: $0) }
        let c = AnimatableProperty.backgroundColor.offset
        return ViewValues(
            center: Point(x: lanes[0], y: lanes[1]),
            bounds: Rect(x: lanes[2], y: lanes[3], width: lanes[4], height: lanes[5]),
            alpha: lanes[AnimatableProperty.alpha.offset],
            transform: t,
            backgroundColor: hasColor ? Color(red: lanes[c], green: lanes[c + 1], blue: lanes[c + 2], alpha: lanes[c + 3]) : nil)
    }

    /// A model lane written by the engine (an animation finished at a position, a stopped
    /// one's values): a new width or height marks the view for layout, as ``setModel(_:_:)``
    /// does.
    func writeModelLane(_ k: Int, _ value: Double) {
        if (k == Self.widthLane || k == Self.widthLane + 1) && modelLanes[k] != value { needsLayout = true }
        modelLanes[k] = value
    }

    /// The model lane of the bounds' width (the height's follows it).
    private static let widthLane = AnimatableProperty.bounds.offset + 2

    /// Every model write goes through here: capture inside an animations block, additive
    /// shift of running animations outside one.
    func setModel(_ property: AnimatableProperty, _ new: PropertyLanes) {
        guard new.allSatisfy(\.isFinite) else {
            Diagnostics.report(.nonFiniteValue(view: name, property: property.description))
            return
        }
        if let capture = AnimationCapture.capturing {
            AnimationCapture.noteWrite(self, property, new: new, by: capture)
            capture.willChange(self, property)
        } else {
            AnimationCapture.noteWrite(self, property, new: new, by: nil)
            if let engine = laneFront, laneBlocks[property.rawValue].exists { engine.modelWillChange(self, property, new: new) }
        }
        // A new size needs a layout (UIKit's bounds and frame setters mark the view), so that
        // `layoutIfNeeded()` in an animations block lays the children out for it.
        if property == .bounds, new[2] != modelLanes[Self.widthLane] || new[3] != modelLanes[Self.widthLane + 1] {
            needsLayout = true
        }
        modelLanes[property] = new
    }
}

extension View {
    /// The window the view is in (the root of its superview chain, when that is a
    /// ``Window``), or nil (`UIView.window`).
    public var window: Window? {
        var node: View? = self
        while let n = node {
            if let w = n as? Window { return w }
            node = n.superview
        }
        return nil
    }

    /// The view's frame in its window's coordinates: its frame moved by each ancestor's
    /// frame origin less its bounds origin (transforms of the ancestors are not applied; a
    /// headless tree has no coordinate conversion beyond this). For a presentation context.
    var frameInWindow: Rect {
        var r = frame
        var node = superview
        while let s = node, !(s is Window) {
            r.origin.x += s.frame.origin.x - s.bounds.origin.x
            r.origin.y += s.frame.origin.y - s.bounds.origin.y
            node = s.superview
        }
        return r
    }
}
