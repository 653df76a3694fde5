/// Collects the property writes made while an animations block runs (UIKit's implicit
/// animation): for each (view, property) the model value before the first write, and the
/// one the model holds when the block returns (the target).
@MainActor
final class AnimationCapture {
    // Unchecked, as the engine's bookkeeping: every access is a read or an instantaneous
    // write (the block runs between them, never inside one).
    @exclusivity(unchecked) private static var stack: [AnimationCapture] = []

    /// The innermost block being captured, if any.
    static var current: AnimationCapture? { stack.last }

    @exclusivity(unchecked) private(set) var changes: [CapturedChange] = []
    /// Per view, the properties already captured (a bit each), once a block has changed more
    /// than `scanLimit` properties; below that the changes themselves are scanned, with no
    /// dictionary to allocate.
    @exclusivity(unchecked) private var seen: [ObjectIdentifier: Int]?
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
            changes[k].model = model
            changes[k].new = model - change.nested
        }
        // The enclosing block's own step on a property excludes this block's (see `nested`).
        if Self.stack.count >= 2 {
            let parent = Self.stack[Self.stack.count - 2]
            for change in changes { parent.absorb(change) }
        }
        return changes
    }

    /// Adds the move of a nested block's `change` to this block's change of the same
    /// property, if this block wrote it before (UIKit's animations are additive, one per
    /// write, each with its own block's timing: in `animate { v.alpha = 0.5; animate {
    /// v.alpha = 0 } }` the outer block animates 1 → 0.5 and the inner 0.5 → 0; read when
    /// the outer block returns, the outer step would be 1 → 0 and count the inner one twice).
    /// A property this block writes only after the nested block starts from the value that
    /// block left, and needs nothing.
    private func absorb(_ nested: CapturedChange) {
        guard let k = changes.firstIndex(where: { $0.view === nested.view && $0.property == nested.property }) else { return }
        changes[k].nested = changes[k].nested + (nested.model - nested.old)
    }

    /// The values `view.property` had before the outermost running block that has written it
    /// (a change the engine takes only when that block returns); nil when no running block
    /// has. A nested animation that gives the property its first lanes anchors them there, so
    /// that the enclosing block's step, added later, starts from the value shown before either.
    static func pendingOld(_ view: View, _ property: AnimatableProperty) -> PropertyLanes? {
        for capture in stack {
            if let change = capture.changes.first(where: { $0.view === view && $0.property == property }) {
                return change.old
            }
        }
        return nil
    }

    /// Notes that `view.property` is about to be written (its old value is kept once).
    func willChange(_ view: View, _ property: AnimatableProperty) {
        guard !captured(view, property) else { return }
        changes.append(CapturedChange(view: view, property: property, old: view.modelLanes[property]))
    }

    /// Whether `view.property` is already among the changes; when not, it is noted in the
    /// index (built from the changes once they pass `scanLimit`).
    private func captured(_ view: View, _ property: AnimatableProperty) -> Bool {
        if seen == nil {
            if changes.contains(where: { $0.view === view && $0.property == property }) { return true }
            guard changes.count >= Self.scanLimit else { return false }
            var index: [ObjectIdentifier: Int] = [:]
            for change in changes { index[ObjectIdentifier(change.view), default: 0] |= 1 << change.property.rawValue }
            seen = index
        }
        let key = ObjectIdentifier(view), bit = 1 << property.rawValue
        if seen![key, default: 0] & bit != 0 { return true }
        seen![key, default: 0] |= bit
        return false
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
