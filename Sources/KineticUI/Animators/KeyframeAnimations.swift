import Kinetic

/// Options of keyframe animations (`UIView.KeyframeAnimationOptions`).
public struct KeyframeAnimationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Animated views take touches.
    public static let allowUserInteraction = KeyframeAnimationOptions(rawValue: 1 << 1)
    /// Start from the values on screen (see ``AnimationOptions/beginFromCurrentState``).
    public static let beginFromCurrentState = KeyframeAnimationOptions(rawValue: 1 << 2)
    /// Repeat forever.
    public static let `repeat` = KeyframeAnimationOptions(rawValue: 1 << 3)
    /// Run forward, then back.
    public static let autoreverse = KeyframeAnimationOptions(rawValue: 1 << 4)
    /// Inside another animations block: use this call's duration, not the outer one's.
    public static let overrideInheritedDuration = KeyframeAnimationOptions(rawValue: 1 << 5)
    /// Inside another animations block: use this call's curve, not the outer one's (UIKit
    /// takes ``AnimationOptions/overrideInheritedCurve``'s bit here too).
    public static let overrideInheritedCurve = KeyframeAnimationOptions(rawValue: 1 << 6)
    /// Each keyframe moves linearly over its relative duration (the default).
    public static let calculationModeLinear = KeyframeAnimationOptions([])
    /// Each keyframe's values hold until the end of its relative duration, then jump.
    public static let calculationModeDiscrete = KeyframeAnimationOptions(rawValue: 1 << 10)
    /// Each property moves linearly through its keyframes' values at a constant speed over
    /// the whole duration: the relative times are ignored (`kCAAnimationPaced`).
    public static let calculationModePaced = KeyframeAnimationOptions(rawValue: 2 << 10)
    /// Each property follows a Catmull-Rom spline through its keyframes' values at their
    /// times (`kCAAnimationCubic`).
    public static let calculationModeCubic = KeyframeAnimationOptions(rawValue: 3 << 10)
    /// The spline of ``calculationModeCubic`` on evenly spaced parameters, traversed at a
    /// constant speed over the whole duration: the relative times are ignored
    /// (`kCAAnimationCubicPaced`).
    public static let calculationModeCubicPaced = KeyframeAnimationOptions(rawValue: 4 << 10)
    /// The keyframe animation's curve, over its whole duration: ease in and out (the
    /// default, as UIKit's keyframe animations are). UIKit reads the curve from these bits
    /// of ``AnimationOptions`` cast to keyframe options; Kinetic names them.
    public static let curveEaseInOut = KeyframeAnimationOptions([])
    /// Ease in over the whole duration (see ``curveEaseInOut``).
    public static let curveEaseIn = KeyframeAnimationOptions(rawValue: AnimationOptions.curveEaseIn.rawValue)
    /// Ease out over the whole duration (see ``curveEaseInOut``).
    public static let curveEaseOut = KeyframeAnimationOptions(rawValue: AnimationOptions.curveEaseOut.rawValue)
    /// Linear over the whole duration (see ``curveEaseInOut``): each keyframe then moves at
    /// constant speed within its relative window.
    public static let curveLinear = KeyframeAnimationOptions(rawValue: AnimationOptions.curveLinear.rawValue)

    /// The curve the options select.
    public var curve: AnimationCurve { AnimationOptions(rawValue: rawValue).curve }

    /// The calculation mode the options select (bits 10–12), or nil for a value UIKit does
    /// not define.
    var calculationMode: KeyframeCalculationMode? {
        switch (rawValue >> 10) & 7 {
        case 0: return .linear
        case 1: return .discrete
        case 2: return .paced
        case 3: return .cubic
        case 4: return .cubicPaced
        default: return nil
        }
    }
}

extension View {
    /// Animates keyframes (`UIView.animateKeyframes`): inside `animations`, each
    /// ``addKeyframe(withRelativeStartTime:relativeDuration:animations:)`` animates its
    /// changes over its part of the duration. Changes made directly in `animations` span the
    /// whole duration.
    ///
    /// As in UIKit, the curve (ease in and out unless the options select another, see
    /// ``KeyframeAnimationOptions/curveLinear``) eases the whole animation's time, and the
    /// keyframes divide the eased time; inside another animations block the call inherits
    /// that block's duration and curve unless `.overrideInheritedDuration` /
    /// `.overrideInheritedCurve` is set. Inside an interruptible ``PropertyAnimator``'s
    /// animations block (one over its whole run), with no delay and none of those options nor
    /// `.repeat`, `.autoreverse` or `.beginFromCurrentState`, the keyframes are that animator's:
    /// over its run, eased by its timing, run, paused, scrubbed and reversed with it; the
    /// completion runs with its (`true` at its end), and `.allowUserInteraction` is the
    /// animator's own setting. The calculation mode shapes each property's motion
    /// through its keyframes (see ``KeyframeAnimationOptions``):
    /// - `.calculationModeLinear` (default) and `.calculationModeDiscrete`: each keyframe
    ///   moves (or holds, then jumps) within its window, and overlapping keyframes add up.
    /// - `.calculationModePaced`, `.calculationModeCubic`, `.calculationModeCubicPaced`: each
    ///   property's keyframes form one Core Animation keyframe track, built as UIKit builds
    ///   it: the value before the animation at time 0, the value held until each keyframe's
    ///   start, each keyframe's value at its end, held to 1. Keyframes of one property are
    ///   taken in the order they were added; one that starts before the previous one ended
    ///   starts when it ended. Paced distance is measured over all the property's lanes.
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` for bad timing or an undefined
    ///   calculation mode; errors from the keyframes.
    public static func animateKeyframes(withDuration duration: Double, delay: Double = 0,
                                        options: KeyframeAnimationOptions = [], engine: AnimationEngine = .shared,
                                        animations: @MainActor () throws -> Void,
                                        completion: (@MainActor (Bool) -> Void)? = nil) throws {
        do { try ParameterError.requireNonNegative(delay, "delay") } catch { throw AnimatorError.invalidParameter(error) }
        guard let mode = options.calculationMode else {
            throw AnimatorError.invalidParameter(.outOfRange(
                parameter: "options.calculationMode", value: Double((options.rawValue >> 10) & 7),
                expected: "linear (0), discrete (1), paced (2), cubic (3) or cubicPaced (4)"))
        }
        do { try ParameterError.requireNonNegative(duration, "duration") } catch { throw AnimatorError.invalidParameter(error) }
        if let outer = AnimatorBlockContext.joined(on: engine, delay: delay, options: options.rawValue) {
            // Inside an interruptible property animator's block: the keyframes are the
            // animator's, over its run, eased by its timing; it runs, pauses, scrubs and
            // reverses them, and the completion runs with its (`true` at its end).
            let collector = KeyframeCollector(duration: outer.duration)
            let direct = try AnimationCapture.run(keyframes: collector, duration: outer.duration, animations)
            try outer.addKeyframes(collector.keyframes, direct: direct, mode: mode)
            if let handler = positionHandler(completion) { outer.addCompletion(handler) }
            return
        }
        let (duration, delay, curve, inheritedTiming) = AnimatorBlockContext.resolvedTiming(
            duration: duration, delay: delay, curve: options.curve, options: options.rawValue)
        let animator = try PropertyAnimator(duration: duration,
                                            timingParameters: inheritedTiming ?? CubicTimingParameters(animationCurve: curve),
                                            engine: engine)
        animator.isBlockAnimation = true
        try animator.configureBlockAnimation(repeats: options.contains(.repeat), autoreverses: options.contains(.autoreverse),
                                             fromCurrentState: options.contains(.beginFromCurrentState),
                                             userInteraction: options.contains(.allowUserInteraction))
        let collector = KeyframeCollector(duration: duration)
        // Its own animation: nothing made in its block joins an animator further out.
        let direct = try AnimatorBlockContext.running(nil) {
            try AnimationCapture.run(keyframes: collector, duration: duration, animations)
        }
        try animator.withRun { core, run in
            try core.startAnimation(run, afterDelay: delay) {
                try animator.activation()
                try animator.addKeyframes(collector.keyframes, direct: direct, mode: mode)
            }
        }
        if let handler = positionHandler(completion) { animator.addCompletion(handler) }
        animator.completeAtNextTickIfEmpty()
    }

    /// Adds a keyframe to the enclosing ``animateKeyframes(withDuration:delay:options:engine:animations:completion:)``.
    /// - Parameters:
    ///   - frameStartTime: start, as a fraction of the keyframe animation's duration, in [0, 1].
    ///   - frameDuration: length, as a fraction of the duration, in [0, 1 − start].
    ///   - animations: sets the keyframe's values.
    /// - Throws: ``AnimatorError/keyframeOutsideAnimateKeyframes`` outside such a block;
    ///   ``AnimatorError/invalidParameter(_:)`` for times outside [0, 1].
    public static func addKeyframe(withRelativeStartTime frameStartTime: Double, relativeDuration frameDuration: Double,
                                   animations: @MainActor () -> Void) throws {
        guard let collector = AnimationCapture.current?.keyframes else { throw AnimatorError.keyframeOutsideAnimateKeyframes }
        for (name, value) in [("relativeStartTime", frameStartTime), ("relativeDuration", frameDuration)]
        where value.isNaN || !(0 ... 1).contains(value) {
            throw AnimatorError.invalidParameter(.outOfRange(parameter: name, value: value, expected: "[0, 1]"))
        }
        guard frameStartTime + frameDuration <= 1 + 1e-12 else {
            throw AnimatorError.invalidParameter(.outOfRange(
                parameter: "relativeStartTime + relativeDuration", value: frameStartTime + frameDuration, expected: "[0, 1]"))
        }
        collector.keyframes.append(.init(start: frameStartTime, duration: frameDuration,
                                         changes: AnimationCapture.run(duration: collector.duration, animations)))
    }
}

extension PropertyAnimator {
    /// A keyframe animation's changes, over the whole run: those made directly in its block,
    /// then its keyframes in `mode`.
    func addKeyframes(_ keyframes: [KeyframeCollector.Keyframe], direct: [CapturedChange],
                      mode: KeyframeCalculationMode) throws {
        // A property written in several of the block's parts (directly and in keyframes, in
        // any order) gets its lanes anchored at the value before the earliest write; once
        // they are added, the engine's model of each is the view's.
        let all = direct + keyframes.flatMap(\.changes)
        var earliest: [ChangeKey: CapturedChange] = [:]
        for change in all {
            let key = ChangeKey(change.view, change.property)
            if let known = earliest[key], known.order <= change.order { continue }
            earliest[key] = change
        }
        let engine = liveFront
        engine.anchors = earliest.mapValues(\.old)
        defer {
            engine.anchors = nil
            for change in earliest.values { engine.modelDidChange(change.view, change.property) }
        }
        try addSegment(direct, start: 0, length: 1)
        switch mode {
        case .linear, .discrete: try addKeyframeWindows(keyframes, direct: direct, mode: mode)
        case .paced, .cubic, .cubicPaced: try addKeyframeTracks(keyframes, mode: mode)
        }
    }

    /// Linear and discrete keyframes: each keyframe's changes move (or hold, then jump)
    /// within the keyframe's window of the eased time. With `.beginFromCurrentState`, only a
    /// property's first animation in this call starts from the value on screen; later
    /// keyframes continue from the earlier ones.
    func addKeyframeWindows(_ keyframes: [KeyframeCollector.Keyframe], direct: [CapturedChange],
                            mode: KeyframeCalculationMode) throws {
        var animated: [ObjectIdentifier: Int] = [:]  // per view, a bit per property animated
        func firstTime(_ change: CapturedChange) -> Bool {
            let id = ObjectIdentifier(change.view), bit = 1 << change.property.rawValue
            let mask = animated[id, default: 0]
            animated[id] = mask | bit
            return mask & bit == 0
        }
        for change in direct { _ = firstTime(change) }
        let engine = liveFront
        try engine.checkLanes(for: keyframes.flatMap(\.changes))
        for keyframe in keyframes {
            let start = keyframe.start, end = min(keyframe.start + keyframe.duration, 1)
            for change in keyframe.changes {
                let first = firstTime(change)
                guard change.new != change.old else { continue }
                try addKeyframeTrack(of: change, values: Array(change.old) + change.old + change.new + change.new,
                                     keyTimes: [0, start, end, 1], mode: mode, fromCurrentState: first ? nil : false)
            }
        }
    }

    /// Paced and cubic keyframes: each property's keyframes form one keyframe track, built
    /// as UIKit builds its `CAKeyframeAnimation`: the value before at 0, the value held to
    /// each keyframe's start, the keyframe's value at its end, the last value held to 1.
    func addKeyframeTracks(_ keyframes: [KeyframeCollector.Keyframe], mode: KeyframeCalculationMode) throws {
        struct Track {
            let first: CapturedChange
            var keyTimes: [Double] = [0]
            var values: [Double]
            var last: [Double]
            var lastTime = 0.0
        }
        var order: [Int] = []
        var tracks: [Track] = []
        var index: [ObjectIdentifier: [Int: Int]] = [:]  // per view, per property: the track
        let engine = liveFront
        try engine.checkLanes(for: keyframes.flatMap(\.changes))
        for keyframe in keyframes {
            let start = keyframe.start, end = min(keyframe.start + keyframe.duration, 1)
            for change in keyframe.changes where change.new != change.old {
                let view = ObjectIdentifier(change.view), property = change.property.rawValue
                let t: Int
                if let known = index[view]?[property] {
                    t = known
                } else {
                    t = tracks.count
                    tracks.append(Track(first: change, values: Array(change.old), last: Array(change.old)))
                    index[view, default: [:]][property] = t
                    order.append(t)
                }
                if start > tracks[t].lastTime {
                    tracks[t].keyTimes.append(start)
                    tracks[t].values += tracks[t].last
                }
                let time = max(end, tracks[t].lastTime)
                tracks[t].keyTimes.append(time)
                tracks[t].values += change.new
                tracks[t].last = Array(change.new)
                tracks[t].lastTime = time
            }
        }
        for t in order {
            var track = tracks[t]
            if track.lastTime < 1 {
                track.keyTimes.append(1)
                track.values += track.last
            }
            try addKeyframeTrack(of: track.first, values: track.values, keyTimes: track.keyTimes, mode: mode,
                                 fromCurrentState: nil)
        }
    }

    /// Adds one property's keyframe track (its lanes' values, keyframe after keyframe) to
    /// the run; `fromCurrentState` nil takes the animator's option.
    private func addKeyframeTrack(of change: CapturedChange, values: [Double], keyTimes: [Double],
                                  mode: KeyframeCalculationMode, fromCurrentState: Bool?) throws {
        let engine = liveFront
        let base = engine.firstLane(for: change)
        let lanes = (0 ..< Int32(change.property.laneCount)).map { base + $0 }
        do {
            try engine.core.addKeyframeAnimation(runHandle, lanes: lanes, values: values, keyTimes: keyTimes,
                                                 calculationMode: mode, fromCurrentState: fromCurrentState)
        } catch {
            throw AnimatorError.invalidParameter(error)
        }
    }
}
