/// Collects the property writes made while an animations block runs (UIKit's implicit
/// animation): for each (view, property) the model value before the first write, the moves
/// that writes not its own made since (in a nested block, or with animations disabled), and
/// the model value when the block returns.
@MainActor
final class AnimationCapture {
    // Unchecked, as the engine's bookkeeping: every access is a read or an instantaneous
    // write (the block runs between them, never inside one).
    @exclusivity(unchecked) private static var stack: [AnimationCapture] = []

    /// The innermost block being captured, if any.
    static var current: AnimationCapture? { stack.last }

    @exclusivity(unchecked) private(set) var changes: [CapturedChange] = []
    /// Changes made so far in the process: each change's `order`.
    @exclusivity(unchecked) private static var changeCount = 0
    /// Per view and property, the index of its change, once a block has changed more than
    /// `scanLimit` properties; below that the changes themselves are scanned, with no
    /// dictionary to allocate.
    @exclusivity(unchecked) private var seen: [ChangeKey: Int]?
    private static let scanLimit = 16
    /// Set inside `View.animateKeyframes`: receives `View.addKeyframe` calls.
    private(set) var keyframes: KeyframeCollector?
    /// The duration of the animation the block belongs to, seconds (`View.inheritedAnimationDuration`).
    private(set) var duration: Double
    /// Captures that `withChanges` reuses, one per nesting depth, with their arrays' capacity
    /// (empty between uses, so that they keep no view alive).
    @exclusivity(unchecked) private static var pool: [AnimationCapture] = []
    /// The most changes whose array a pooled capture keeps for the next block.
    private static let pooledCapacity = 64

    private init(keyframes: KeyframeCollector?, duration: Double) {
        self.keyframes = keyframes
        self.duration = duration
    }

    /// Whether animations are enabled (`View.setAnimationsEnabled(_:)`): while they are not,
    /// writes inside an animations block are not captured and apply at once.
    @exclusivity(unchecked) static var animationsEnabled = true

    /// The capture that a property write inside an animations block goes to: the innermost
    /// block's, unless animations are disabled.
    static var capturing: AnimationCapture? { animationsEnabled ? current : nil }

    /// Runs `body` and passes the changes it made to animatable properties to `use`: as
    /// ``run(keyframes:duration:_:)``, but the capture and its array are reused from block to
    /// block (an animator's blocks), so `use` must not keep the array past the call.
    static func withChanges<R>(duration: Double, _ body: () throws -> Void,
                               _ use: ([CapturedChange]) throws -> R) rethrows -> R {
        // The pooled capture of this depth: an outer block that uses the pool holds a lower
        // one. Captures of their own (a keyframe animation's block) deepen the stack too, so
        // the pool may be more than one short.
        let depth = stack.count
        while depth >= pool.count { pool.append(AnimationCapture(keyframes: nil, duration: duration)) }
        let capture = pool[depth]
        capture.duration = duration
        defer {
            capture.seen = nil
            // Emptied outside any access to the capture's array: dropping the last reference
            // to a view runs its deinit (user code for a subclass), which may start an
            // animator and so reuse this capture. A block of many changes gives its capacity
            // back rather than keep it in the pool for good.
            var used = exchange(&capture.changes, with: [])
            if used.capacity > Self.pooledCapacity { used = [] } else { used.removeAll(keepingCapacity: true) }
            capture.changes = used
        }
        return try use(capture.capture(body))
    }

    /// Runs `body` and returns the changes it made to animatable properties.
    /// - Parameter duration: the animation's duration, seconds (read back inside `body` as
    ///   `View.inheritedAnimationDuration`).
    static func run(keyframes: KeyframeCollector? = nil, duration: Double,
                    _ body: () throws -> Void) rethrows -> [CapturedChange] {
        try AnimationCapture(keyframes: keyframes, duration: duration).capture(body)
    }

    /// Runs `body` as the innermost block and returns the changes it made.
    private func capture(_ body: () throws -> Void) rethrows -> [CapturedChange] {
        Self.stack.append(self)
        defer {
            Self.stack.removeLast()
            // The engine animating a property holds its model value too (also when the block
            // throws, or its changes are then rejected).
            // (Only a property with a lane block has an engine's model value to update.)
            for change in changes where change.view.laneBlocks[change.property.rawValue].exists {
                change.view.laneFront?.modelDidChange(change.view, change.property)
            }
        }
        try body()
        for k in changes.indices {
            let change = changes[k]
            let model = change.view.modelLanes[change.property]
            if let moves = change.moves {
                moves.model = model
                changes[k].new = model - moves.foreign
            } else {
                changes[k].new = model
            }
        }
        return changes
    }

    /// The values `view.property` had before the outermost running block that has written it
    /// (a change the engine takes only when that block returns); nil when no running block
    /// has. A nested animation that gives the property its first lanes anchors them there, so
    /// that the enclosing block's step, added later, starts from the value shown before either.
    /// (Plus the moves written since with animations disabled, which no animation makes.)
    static func pendingOld(_ view: View, _ property: AnimatableProperty) -> PropertyLanes? {
        for capture in stack {
            if let k = capture.index(of: view, property) { return capture.changes[k].anchorValues }
        }
        return nil
    }

    /// Notes that `view.property` is about to be written in this block (its old value is kept
    /// at the first write).
    func willChange(_ view: View, _ property: AnimatableProperty) {
        guard index(of: view, property) == nil else { return }
        Self.changeCount &+= 1
        changes.append(CapturedChange(view: view, property: property, old: view.modelLanes[property],
                                      order: Self.changeCount))
        if seen != nil { seen![ChangeKey(view, property)] = changes.count - 1 }
    }

    /// Notes that `view.property` is about to take `new` by a write that is not the block's
    /// own, for every running block except `writer` (the block the write belongs to; nil for
    /// a write with animations disabled) that has written the property: its step leaves the
    /// move out. UIKit's animations are additive, one per write, each with the timing of the
    /// block it is made in: in `animate { v.alpha = 0.5; animate { v.alpha = 0 } }` the outer
    /// block animates 1 → 0.5 and the inner 0.5 → 0, not 1 → 0 and 0.5 → 0.
    static func noteWrite(_ view: View, _ property: AnimatableProperty, new: PropertyLanes, by writer: AnimationCapture?) {
        guard !stack.isEmpty, stack.count > 1 || stack[0] !== writer else { return }
        let move = new - view.modelLanes[property]
        for capture in stack where capture !== writer {
            guard let k = capture.index(of: view, property) else { continue }
            let moves = capture.changes[k].moves ?? ForeignMoves(capture.changes[k].old)
            capture.changes[k].moves = moves
            moves.foreign = moves.foreign + move
            if writer == nil { moves.disabled = moves.disabled + move }
        }
    }

    /// The index of `view.property`'s change, if the block has one (through the index once
    /// the changes pass `scanLimit`).
    private func index(of view: View, _ property: AnimatableProperty) -> Int? {
        if seen == nil {
            guard changes.count >= Self.scanLimit else {
                return changes.firstIndex { $0.view === view && $0.property == property }
            }
            var index: [ChangeKey: Int] = [:]
            for (k, change) in changes.enumerated() { index[ChangeKey(change.view, change.property)] = k }
            seen = index
        }
        return seen![ChangeKey(view, property)]
    }
}

/// A view and one of its properties, as a dictionary key.
struct ChangeKey: Hashable {
    let view: ObjectIdentifier
    let property: Int

    @MainActor
    init(_ view: View, _ property: AnimatableProperty) {
        self.view = ObjectIdentifier(view)
        self.property = property.rawValue
    }
}

/// The keyframes an `animateKeyframes` block adds.
@MainActor
final class KeyframeCollector {
    struct Keyframe {
        let start: Double
        let duration: Double
        let changes: [CapturedChange]
    }
    var keyframes: [Keyframe] = []
    /// The keyframe animation's duration, seconds.
    let duration: Double

    init(duration: Double) {
        self.duration = duration
    }
}
