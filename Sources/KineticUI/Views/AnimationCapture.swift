/// Collects the property writes made while an animations block runs (UIKit's implicit
/// animation): for each (view, property) the model value before the first write, and the
/// one the model holds when the block returns (the target).
@MainActor
final class AnimationCapture {
    private static var stack: [AnimationCapture] = []

    /// The innermost block being captured, if any.
    static var current: AnimationCapture? { stack.last }

    private(set) var changes: [CapturedChange] = []
    private var seen: [ObjectIdentifier: Int] = [:]
    /// Set inside `View.animateKeyframes`: receives `View.addKeyframe` calls.
    let keyframes: KeyframeCollector?

    private init(keyframes: KeyframeCollector?) {
        self.keyframes = keyframes
    }

    /// Runs `body` and returns the changes it made to animatable properties.
    static func run(keyframes: KeyframeCollector? = nil, _ body: () throws -> Void) rethrows -> [CapturedChange] {
        let capture = AnimationCapture(keyframes: keyframes)
        stack.append(capture)
        defer {
            stack.removeLast()
            // The engine animating a property holds its model value too (also when the block
            // throws, or its changes are then rejected).
            for change in capture.changes { change.view.laneEngine?.modelDidChange(change.view, change.property) }
        }
        try body()
        for k in capture.changes.indices {
            let change = capture.changes[k]
            capture.changes[k].new = change.view.lanes(of: change.property, in: change.view.modelLanes)
        }
        return capture.changes
    }

    /// Notes that `view.property` is about to be written (its old value is kept once).
    func willChange(_ view: View, _ property: AnimatableProperty) {
        let key = ObjectIdentifier(view)
        let mask = seen[key, default: 0]
        let bit = 1 << property.rawValue
        guard mask & bit == 0 else { return }
        seen[key] = mask | bit
        changes.append(CapturedChange(view: view, property: property, old: view.lanes(of: property, in: view.modelLanes)))
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
}
