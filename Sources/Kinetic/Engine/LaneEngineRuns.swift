/// A run's place in the `UIViewAnimating` state machine.
enum RunPhase: UInt8 {
    /// Inactive: no animations in the engine, fraction 0.
    case inactive
    /// Active, time advancing (or waiting for its delay).
    case running
    /// Active, time stopped.
    case paused
    /// Active, started with no animations: the first animations added start it.
    case waitingForAnimations
    /// Stopped: animations removed, waiting for `finishAnimation(at:)`.
    case stopped
}

/// What a spring run was created with: its timing and the duration given (a continuation
/// without new timing reuses them). Shared by reference, beside the timing records. Runs
/// with linear or cubic timing keep none: their record's curve and duration are what they
/// were created with (no allocation per run).
final class RunSpec {
    let timing: RunTiming
    /// Seconds (a physical spring's run lasts its own settling time instead).
    let duration: Double

    init(timing: RunTiming, duration: Double) {
        self.timing = timing
        self.duration = duration
    }

    /// Heap bytes of one spec: the object's header (16 bytes) and its stored properties.
    static var heapBytes: Int { 16 + MemoryLayout<RunTiming>.stride + MemoryLayout<Double>.stride }
}

/// The animations added to an inactive run, applied when it starts: the first held inline
/// (no array to allocate for the usual one), any later ones in `more`.
struct PendingAnimations {
    typealias Animation = (targets: LaneTargets, delayFactor: Double)
    let first: Animation
    var more: [Animation] = []

    init(_ first: Animation) {
        self.first = first
    }

    /// Calls `body` with each animation in the order they were added.
    func forEach(_ body: (Animation) -> Void) {
        body(first)
        for animation in more { body(animation) }
    }
}

/// The animations kept for inactive runs, by record: the run that got some last holds them
/// inline, the others are in a dictionary. A host mostly adds animations to the run it has
/// just created and then starts it, which then costs no hashing.
struct PendingAnimationTable {
    private var recent: (index: Int32, pending: PendingAnimations)?
    private var others: [Int32: PendingAnimations] = [:]

    var isEmpty: Bool { recent == nil && others.isEmpty }

    /// Keeps `animation` for record `index`, after those it already has.
    mutating func add(_ index: Int32, _ animation: PendingAnimations.Animation) {
        if recent?.index == index {
            recent!.pending.more.append(animation)
        } else if others[index] != nil {
            others[index]!.more.append(animation)
        } else {
            if let previous = recent { others[previous.index] = previous.pending }
            recent = (index, PendingAnimations(animation))
        }
    }

    /// Takes what record `index` has (nil: nothing).
    mutating func remove(_ index: Int32) -> PendingAnimations? {
        if let kept = recent, kept.index == index {
            recent = nil
            return kept.pending
        }
        return others.isEmpty ? nil : others.removeValue(forKey: index)
    }
}

/// The lane targets of one animation: one held inline (a C host's usual call: no array to
/// allocate), or several.
package enum LaneTargets {
    case one(LaneTarget)
    case many([LaneTarget])

    /// Calls `body` with each target in order.
    @inline(__always)
    func forEach(_ body: (LaneTarget) -> Void) {
        switch self {
        case .one(let target): body(target)
        case .many(let targets): for target in targets { body(target) }
        }
    }
}

/// A lane and the value an animation moves it to (its new model value).
package struct LaneTarget: Sendable, Equatable {
    package let lane: Int32
    package let value: Double
    /// Whether the lane takes a spring's vertical velocity.
    package let vertical: Bool

    package init(lane: Int32, value: Double, vertical: Bool = false) {
        self.lane = lane
        self.value = value
        self.vertical = vertical
    }
}

/// The `UIViewAnimating` state machine of the engine's runs.
///
/// A run is created inactive with its timing, and lives until its owner releases it: it
/// becomes active when started, paused or scrubbed, and inactive again when it completes
/// (a tick queues `.finished`), is stopped without finishing, or is finished after a stop.
/// Every call checks the run's state first and throws ``RunError`` (UIKit's illegal calls)
/// leaving the engine unchanged. The rules where UIKit's documentation is ambiguous are the
/// UIKit layer's (see `PropertyAnimator`): `delayFactor` and `durationFactor` are fractions
/// of the original duration; a reversed run that reaches its start ends at `.start`;
/// reversing while running takes effect at once.
///
/// Animations are lane targets. A run's owner whose animations are closures (the UIKit
/// layer) runs them when the engine activates the run: the `activation` argument of the
/// calls that can activate one, and the `changes` argument of ``addAnimations(_:delayFactor:changes:)``.
/// The engine calls them synchronously inside that call, never during a tick.
extension LaneEngine {
    // MARK: Creating and releasing

    /// A new inactive run.
    /// - Parameters:
    ///   - timing: how progress follows the run's time.
    ///   - duration: seconds, finite and ≥ 0 (a physical spring lasts its settling time).
    /// - Throws: ``RunError/invalidParameter(_:)`` for a bad duration or a spring that
    ///   cannot settle in it.
    package func makeRun(timing: RunTiming, duration: Double) throws -> RunHandle {
        do {
            try ParameterError.requireNonNegative(duration, "duration")
            let (curve, runDuration) = try self.curve(for: timing, duration: duration)
            return makeRun(curve: curve, duration: runDuration, timing: timing, givenDuration: duration)
        } catch let error as ParameterError {
            throw RunError.invalidParameter(error)
        }
    }

    /// A new inactive run with its progress curve already made (see ``RunTiming/curve(forDuration:)``).
    /// Equal cubic curves are interned: runs share one solver and its tables.
    package func makeRun(curve: ProgressCurve, duration: Double, timing: RunTiming, givenDuration: Double) -> RunHandle {
        let run = makeRun(curve: interned(curve), duration: duration, repeats: false, autoreverses: false)
        switch timing {
        case .linear, .cubic:
            // The curve does not depend on the duration, and the run's duration is the one given.
            break
        case .dampedSpring, .physicalSpring:
            specs[run.index] = RunSpec(timing: timing, duration: givenDuration)
        }
        return run
    }

    /// `timing.curve(forDuration:)`, with a cubic curve that is already interned taken as it
    /// is (no new box for it).
    /// - Throws: ``ParameterError`` as `RunTiming.curve(forDuration:)`.
    package func curve(for timing: RunTiming, duration: Double) throws -> (curve: ProgressCurve, duration: Double) {
        if case .cubic(let bezier) = timing, let shared = internedCurve(bezier) { return (shared, duration) }
        return try timing.curve(forDuration: duration)
    }

    /// Cubic curves in use, interned so that runs with equal curves share one solver table
    /// (hot in cache during a tick). At most 1,024 distinct curves; past that it starts over.
    func interned(_ curve: ProgressCurve) -> ProgressCurve {
        guard case .cubic(let bezier) = curve else { return curve }
        if let shared = internedCurve(bezier) { return shared }
        if curveCache.count >= 1024 { curveCache.removeAll(keepingCapacity: true) }
        curveCache[bezier] = curve
        lastInterned = (bezier, curve)
        return curve
    }

    /// The interned curve equal to `bezier`, or nil (the linear curve is never interned: it
    /// runs as `.linear`).
    @inline(__always)
    func internedCurve(_ bezier: CubicBezier) -> ProgressCurve? {
        if let last = lastInterned, last.bezier == bezier { return last.curve }
        guard let shared = curveCache[bezier] else { return nil }
        lastInterned = (bezier, shared)
        return shared
    }

    /// Releases a run: its animations end where they are (`.current`) and its handle is
    /// stale afterwards.
    package func releaseRunAndAnimations(_ run: RunHandle) {
        let id = run.index
        if hasLiveSegment(ofRecord: id) {
            finishSegments(of: run, at: .current)
            compactIfNeeded()
        }
        _ = pendingAnimations.remove(id)
        pendingKeyframes[id] = nil
        stoppedValues[id] = nil
        repeatLimits[id] = nil
        waitingStarts[id] = nil
        releaseRun(run)
    }

    // MARK: Reading

    /// Inactive, active or stopped.
    package func state(of run: RunHandle) -> RunState {
        switch records[Int(run.index)].phase {
        case .inactive: return .inactive
        case .running, .paused, .waitingForAnimations: return .active
        case .stopped: return .stopped
        }
    }

    /// Whether time advances the run (including while it waits for its delay).
    package func isRunning(_ run: RunHandle) -> Bool { records[Int(run.index)].phase == .running }

    /// Whether the run is active and waiting for its first animations.
    package func isWaitingForAnimations(_ run: RunHandle) -> Bool {
        records[Int(run.index)].phase == .waitingForAnimations
    }

    /// The fraction of the run's time, in [0, 1] (0 while inactive; where it was stopped
    /// while stopped).
    package func fractionComplete(of run: RunHandle) -> Double {
        let i = Int(run.index)
        switch records[i].phase {
        case .inactive: return 0
        default: return records[i].f
        }
    }

    /// Whether the run goes towards its start values.
    package func isReversed(_ run: RunHandle) -> Bool { records[Int(run.index)].reversed }
    /// Whether the run can be paused, stopped, reversed or continued once running.
    package func isInterruptible(_ run: RunHandle) -> Bool { records[Int(run.index)].interruptible }
    /// Whether a scrub maps the fraction to progress linearly.
    package func scrubsLinearly(_ run: RunHandle) -> Bool { records[Int(run.index)].scrubsLinearly }
    /// Whether the run pauses at its end instead of completing.
    package func pausesOnCompletion(_ run: RunHandle) -> Bool { records[Int(run.index)].pausesOnCompletion }
    /// Whether the animations added since the run became active animate any lane.
    package func animatesLanes(_ run: RunHandle) -> Bool { records[Int(run.index)].animatesLanes }

    // MARK: Configuring

    /// Sets whether the run can be interrupted.
    /// - Throws: ``RunError/setWhileActive(property:)`` unless the run is inactive.
    package func setInterruptible(_ value: Bool, of run: RunHandle) throws {
        guard state(of: run) == .inactive else { throw RunError.setWhileActive(property: "isInterruptible") }
        records[Int(run.index)].interruptible = value
    }

    /// Sets whether a scrub maps the fraction linearly (any state; applies to the next scrub).
    package func setScrubsLinearly(_ value: Bool, of run: RunHandle) {
        records[Int(run.index)].scrubsLinearly = value
    }

    /// The options of block-based animations: repetition, and starting from the current
    /// output (freezing the other animations of the same lanes). Only while inactive.
    package func configure(_ run: RunHandle, repeats: Bool, autoreverses: Bool, beginsFromCurrentState: Bool) {
        let i = Int(run.index)
        records[i].repeats = repeats
        records[i].autoreverses = autoreverses
        records[i].beginsFromCurrentState = beginsFromCurrentState
    }

    /// Makes a repeating run repeat `cycles` times (UIKit's `modifyAnimations(withRepeatCount:
    /// autoreverses:animations:)` and `setAnimationRepeatCount`): fractions allowed, 0 or less
    /// meaning once. A cycle is one pass, or with `autoreverses` a pass forward and back. The
    /// count holds from the start: when it runs out the run ends at `.end`. Pausing, scrubbing,
    /// reversing, continuing or stopping the run drops the count (it then repeats until
    /// stopped). Only while inactive.
    package func setRepeatCount(_ cycles: Double, of run: RunHandle) {
        guard state(of: run) == .inactive, cycles.isFinite else { return }
        repeatLimits[run.index] = (Swift.max(cycles, 0) > 0 ? cycles : 1, nil)
    }

    /// Drops a finite repeat count (the run was interrupted).
    private func dropRepeatLimit(_ run: RunHandle) {
        if !repeatLimits.isEmpty { repeatLimits[run.index] = nil }
    }

    // MARK: Starting and pausing

    /// Starts the run, or resumes it when paused; `afterDelay` starts an inactive one after
    /// that many seconds. A run with no animations waits, active, for its first, which then
    /// begin at the start time plus the delay (or at once, if that has passed).
    /// - Parameter activation: runs once the engine has activated an inactive run (the
    ///   owner adds the animations it kept for the start).
    /// - Throws: ``RunError/startWhileStopped``; ``RunError/startAfterDelayWhilePaused``;
    ///   ``RunError/invalidParameter(_:)`` for a negative or non-finite delay.
    package func startAnimation(_ run: RunHandle, afterDelay delay: Double? = nil,
                                activation: (() throws -> Void)? = nil) throws {
        if let delay {
            do { try ParameterError.requireNonNegative(delay, "delay") } catch { throw RunError.invalidParameter(error) }
        }
        let i = Int(run.index)
        switch records[i].phase {
        case .stopped: throw RunError.startWhileStopped
        case .running, .waitingForAnimations: return
        case .paused:
            if delay != nil { throw RunError.startAfterDelayWhilePaused }
            resume(run)
        case .inactive:
            try activate(run, activation)
            if !records[i].hasAnimations {
                records[i].phase = .waitingForAnimations
                // The delay still holds for the first animations (UIKit's `delay`: "the start
                // of any animations is delayed by the specified amount of time").
                if let delay, delay > 0 { waitingStarts[run.index] = now + delay }
                return
            }
            runLeg(run, delay: delay ?? 0)
        }
    }

    /// Pauses the run; an inactive run becomes active and paused at 0.
    /// - Throws: ``RunError/pauseWhileStopped``; ``RunError/notInterruptible(call:)`` when
    ///   running and not interruptible.
    package func pauseAnimation(_ run: RunHandle, activation: (() throws -> Void)? = nil) throws {
        let i = Int(run.index)
        switch records[i].phase {
        case .stopped: throw RunError.pauseWhileStopped
        case .paused: return
        case .waitingForAnimations:
            records[i].phase = .paused
            waitingStarts[run.index] = nil
        case .inactive:
            try activate(run, activation)
            records[i].phase = .paused
        case .running:
            guard records[i].interruptible else { throw RunError.notInterruptible(call: "pauseAnimation") }
            records[i].running = false
            records[i].phase = .paused
            dropRepeatLimit(run)
        }
    }

    /// Scrubs the run: a paused (or waiting) run moves to `fraction`, an inactive one becomes
    /// active and paused there; ignored while running or stopped.
    /// - Throws: ``RunError/invalidParameter(_:)`` for NaN or a value outside [0, 1].
    package func setFractionComplete(_ run: RunHandle, _ fraction: Double, activation: (() throws -> Void)? = nil) throws {
        guard !fraction.isNaN, (0 ... 1).contains(fraction) else {
            throw RunError.invalidParameter(.outOfRange(parameter: "fractionComplete", value: fraction, expected: "[0, 1]"))
        }
        let i = Int(run.index)
        switch records[i].phase {
        case .running, .stopped:
            return
        case .inactive:
            try activate(run, activation)
            records[i].phase = .paused
        case .paused, .waitingForAnimations:
            records[i].phase = .paused
            if !waitingStarts.isEmpty { waitingStarts[run.index] = nil }
        }
        dropRepeatLimit(run)
        scrub(run, to: fraction, linearly: records[i].scrubsLinearly)
    }

    /// Sets the direction. While running it turns the run round at once (a pending delay is
    /// kept); while inactive or paused it applies to the next start; while stopped it is
    /// ignored.
    /// - Throws: ``RunError/notInterruptible(call:)`` when running and not interruptible.
    package func setReversed(_ reversed: Bool, of run: RunHandle) throws {
        let i = Int(run.index)
        // A stopped run ignores it (UIKit lets a stopped animator ignore the change): the run
        // only waits for its finish, and a direction kept from here would send its next start
        // backwards.
        guard records[i].reversed != reversed, records[i].phase != .stopped else { return }
        if records[i].phase == .running, !records[i].interruptible {
            throw RunError.notInterruptible(call: "isReversed")
        }
        records[i].reversed = reversed
        dropRepeatLimit(run)
        if records[i].phase == .running {
            resume(run, delay: Swift.max(records[i].start - now, 0))
        }
    }

    /// Sets whether the run pauses at its end instead of completing.
    package func setPausesOnCompletion(_ pauses: Bool, of run: RunHandle) {
        records[Int(run.index)].pausesOnCompletion = pauses
    }

    // MARK: Animations

    /// Adds animations that start `delayFactor × duration` later than the run's current
    /// point and end with the run. Inactive: returns false without calling `changes` (the
    /// owner keeps them for the start; see ``addAnimations(_:targets:delayFactor:)`` for
    /// targets the engine keeps). Waiting: they start the run. Active: they run from the
    /// current fraction (plus the delay) to the end the run is heading for.
    /// - Parameter changes: the lanes and their old and new values, made when called.
    /// - Throws: ``RunError/addAnimationsWhileStopped``; ``RunError/invalidParameter(_:)``
    ///   for a factor outside [0, 1], a changed lane that carries ``maximumContributions``
    ///   already, or a span beyond the range of `Double` (``requireAddable(_:to:fromCurrentState:)``); what
    ///   `changes` throws.
    package func addAnimations(_ run: RunHandle, delayFactor: Double, changes: () throws -> [LaneChange]) throws -> Bool {
        guard !delayFactor.isNaN, (0 ... 1).contains(delayFactor) else {
            throw RunError.invalidParameter(.outOfRange(parameter: "delayFactor", value: delayFactor, expected: "[0, 1]"))
        }
        let i = Int(run.index)
        switch records[i].phase {
        case .stopped:
            throw RunError.addAnimationsWhileStopped
        case .inactive:
            return false
        case .waitingForAnimations:
            let made = try changes()
            try room(for: made, in: run)
            addAnimation(run, changes: made, windowStart: delayFactor, windowLength: 1 - delayFactor)
            runLeg(run, delay: waitingDelay(run))
        case .running, .paused:
            let made = try changes()
            try room(for: made, in: run)
            let f = records[i].f
            if records[i].reversed {
                let a = Swift.max(f - delayFactor, 0)
                addAnimation(run, changes: made, windowStart: a, windowLength: a, inverted: true)
            } else {
                let a = Swift.min(f + delayFactor, 1)
                addAnimation(run, changes: made, windowStart: a, windowLength: 1 - a)
            }
        }
        return true
    }

    /// What is left of the delay of a run that waited for its first animations (0 for a run
    /// started without one, or once it has passed); the run no longer waits.
    func waitingDelay(_ run: RunHandle) -> Double {
        guard !waitingStarts.isEmpty, let start = waitingStarts.removeValue(forKey: run.index) else { return 0 }
        return Swift.max(start - now, 0)
    }

    /// ``requireAddable(_:to:fromCurrentState:)`` as a ``RunError``.
    private func room(for changes: [LaneChange], in run: RunHandle) throws(RunError) {
        do { try requireAddable(changes, to: run) } catch { throw .invalidParameter(error) }
    }

    /// Adds animations to lane targets: kept by the engine while the run is inactive (each
    /// lane then moves from the value it has when the run starts), else as
    /// ``addAnimations(_:delayFactor:changes:)``.
    package func addAnimations(_ run: RunHandle, targets: [LaneTarget], delayFactor: Double) throws {
        try addAnimations(run, targets: .many(targets), delayFactor: delayFactor)
    }

    /// ``addAnimations(_:targets:delayFactor:)`` for targets held as ``LaneTargets`` (one
    /// target needs no array).
    package func addAnimations(_ run: RunHandle, targets: LaneTargets, delayFactor: Double) throws {
        if try !addAnimations(run, delayFactor: delayFactor, changes: { self.changes(to: targets) }) {
            pendingAnimations.add(run.index, (targets, delayFactor))
        }
    }

    /// The changes that move each lane of `targets` from its model value to its target, in
    /// the engine's scratch array (reused: no allocation once it has grown). The caller
    /// passes the result on at once (`addSegment` reads it before anything refills it).
    func changes(to targets: LaneTargets) -> [LaneChange] {
        changeScratch.removeAll(keepingCapacity: true)
        targets.forEach { target in
            changeScratch.append(LaneChange(lane: target.lane, old: model[Int(target.lane)], new: target.value,
                                            vertical: target.vertical))
        }
        return changeScratch
    }

    /// Adds one animation (a segment) to an active run over an explicit window of its time
    /// fraction (keyframes); `fromCurrentState` nil takes the run's option.
    package func addAnimation(_ run: RunHandle, changes: [LaneChange], windowStart: Double, windowLength: Double,
                              inverted: Bool = false, discrete: Bool = false, fromCurrentState: Bool? = nil) {
        let i = Int(run.index)
        records[i].hasAnimations = true
        let lanes = addSegment(run, changes: changes, windowStart: windowStart, windowLength: windowLength,
                               inverted: inverted, discrete: discrete,
                               fromCurrentState: fromCurrentState ?? records[i].beginsFromCurrentState)
        if lanes > 0 { records[i].animatesLanes = true }
    }

    // MARK: Stopping and finishing

    /// Stops the run where it is: its animations end and the lanes' model values become the
    /// values last shown. `withoutFinishing` makes it inactive at once; otherwise it is
    /// stopped until ``finishAnimation(_:at:)``.
    /// - Returns: the lanes it animated with their start and end values (empty when
    ///   `withoutFinishing`), read before the animations ended.
    /// - Throws: ``RunError/stopWhileInactive``, ``RunError/stopWhileStopped``,
    ///   ``RunError/notInterruptible(call:)`` when running and not interruptible.
    @discardableResult
    package func stopAnimation(_ run: RunHandle, withoutFinishing: Bool) throws -> [StoppedLaneValues] {
        let i = Int(run.index)
        switch records[i].phase {
        case .inactive: throw RunError.stopWhileInactive
        case .stopped: throw RunError.stopWhileStopped
        case .running where !records[i].interruptible: throw RunError.notInterruptible(call: "stopAnimation")
        case .running, .paused, .waitingForAnimations: break
        }
        // The record keeps the fraction where the run stopped (`fractionComplete`).
        records[i].running = false
        dropRepeatLimit(run)
        let values = withoutFinishing ? [] : stopValues(of: run)
        finishSegments(of: run, at: .current)
        compactIfNeeded()
        if withoutFinishing {
            becomeInactive(i)
        } else {
            records[i].phase = .stopped
            let owned = values.filter { !blocks[blockIndex(ofLane: $0.lane)].releasesWhenIdle }
            if !owned.isEmpty { stoppedValues[run.index] = owned }
        }
        return values
    }

    /// Finishes a stopped run: `.end` and `.start` set the lanes' model values to the
    /// animations' end or start values, `.current` leaves them; the run becomes inactive.
    /// Lanes of blocks that are released when idle are left to the owner (it holds what
    /// ``stopAnimation(_:withoutFinishing:)`` returned).
    /// - Throws: ``RunError/finishRequiresStopped(state:)`` unless stopped.
    package func finishAnimation(_ run: RunHandle, at position: RunPosition) throws {
        let i = Int(run.index)
        guard records[i].phase == .stopped else { throw RunError.finishRequiresStopped(state: state(of: run)) }
        if position != .current, let values = stoppedValues[run.index] {
            for lane in values { setModel(lane: Int(lane.lane), to: position == .end ? lane.end : lane.start) }
        }
        stoppedValues[run.index] = nil
        becomeInactive(i)
    }

    // MARK: Continuing

    /// Resumes a paused run with new timing, from where its lanes are now: the rest of the
    /// run takes `durationFactor × duration` seconds (`0`: the time the original timing had
    /// left; a physical spring takes its own settling time): the run's time moves on, and each
    /// animation covers the rest of its part of the run (its window) from its current
    /// progress, eased by the new timing, as that time crosses it (see
    /// `progress(of:record:base:weight:)`). `timing` nil with factor 0 resumes the original
    /// timing unchanged.
    /// - Throws: ``RunError/continueRequiresPaused(state:isRunning:)`` unless paused;
    ///   ``RunError/notInterruptible(call:)``; ``RunError/invalidParameter(_:)`` for a negative
    ///   or non-finite factor, a spring that cannot settle in time, or a leg whose duration is
    ///   beyond the range of `Double`. Nothing changes when it throws.
    /// - Parameter delay: seconds (finite, ≥ 0) before the new leg begins; the lanes stay
    ///   where they are meanwhile (the run counts as running).
    package func continueAnimation(_ run: RunHandle, timing: RunTiming?, durationFactor: Double,
                                   delay: Double = 0) throws {
        do { try ParameterError.requireNonNegative(durationFactor, "durationFactor") } catch {
            throw RunError.invalidParameter(error)
        }
        let i = Int(run.index)
        guard records[i].phase == .paused else {
            throw RunError.continueRequiresPaused(state: state(of: run), isRunning: records[i].phase == .running)
        }
        guard records[i].interruptible else { throw RunError.notInterruptible(call: "continueAnimation") }
        let r = records[i]
        if timing == nil, durationFactor == 0, !r.linearScrub, !r.continuation {
            dropRepeatLimit(run)
            resume(run)
            return
        }
        let target: Double = records[i].reversed ? 0 : 1
        let remaining = abs(target - r.f) * r.duration
        // A run made from a progress curve alone has no spec: its own duration and curve stand in.
        let spec = specs.isEmpty ? nil : specs[run.index]
        let length = durationFactor > 0 ? durationFactor * (spec?.duration ?? r.duration) : remaining
        // Everything that can fail comes before the run changes (an illegal call changes nothing).
        let made: (curve: ProgressCurve, duration: Double)
        if let chosen = timing ?? spec?.timing {
            do { made = try chosen.curve(forDuration: length) } catch let error as ParameterError {
                throw RunError.invalidParameter(error)
            }
        } else {
            made = (recordCurves[i], length)
        }
        guard made.duration.isFinite else {
            throw RunError.invalidParameter(.outOfRange(parameter: "durationFactor", value: durationFactor,
                                                        expected: "a factor whose duration is finite"))
        }
        dropRepeatLimit(run)
        startLeg(run, to: target, length: made.duration, startTime: now + (delay > 0 ? delay : 0),
                 continuation: interned(made.curve))
        records[i].phase = .running
    }

    /// A run whose animations changed nothing (a block animation of no change) completes at
    /// the next tick, with no repetition.
    package func completeAtNextTickIfEmpty(_ run: RunHandle) {
        let i = Int(run.index)
        guard !records[i].animatesLanes else { return }
        switch records[i].phase {
        case .running, .paused, .waitingForAnimations: break
        case .inactive, .stopped: return
        }
        records[i].repeats = false
        startLeg(run, to: 1, length: 0, startTime: now)
        records[i].phase = .running
    }

    // MARK: Internals

    /// Inactive → active: a fresh timing record at fraction 0, then the animations the
    /// engine kept for the start, then the owner's (`activation`). If those throw, the
    /// animations added so far end at their end values and the run stays inactive.
    private func activate(_ run: RunHandle, _ activation: (() throws -> Void)?) throws {
        let i = Int(run.index)
        resetRecord(i)
        records[i].hasAnimations = false
        records[i].animatesLanes = false
        records[i].phase = .paused
        if !pendingAnimations.isEmpty, let pending = pendingAnimations.remove(run.index) {
            pending.forEach { animation in
                // Kept targets on a lane that filled up since they were added, or whose model
                // value has moved beyond the range of a span from them, change nothing.
                let made = changes(to: animation.targets)
                guard (try? requireAddable(made, to: run)) != nil else { return }
                addAnimation(run, changes: made, windowStart: animation.delayFactor,
                             windowLength: 1 - animation.delayFactor)
            }
        }
        if !pendingKeyframes.isEmpty, let pending = pendingKeyframes.removeValue(forKey: run.index) {
            for keyframes in pending { applyKeyframes(keyframes, to: run) }
        }
        do {
            try activation?()
        } catch {
            finishSegments(of: run, at: .end)
            compactIfNeeded()
            becomeInactive(i)
            throw error
        }
    }

    /// A direct leg from the current fraction to the end the direction points at.
    func runLeg(_ run: RunHandle, delay: Double) {
        let i = Int(run.index)
        let target: Double = records[i].reversed ? 0 : 1
        let end: RunPosition? = records[i].autoreverses ? .end : nil
        startLeg(run, to: target, length: abs(target - records[i].f) * records[i].duration, startTime: now + delay,
                 endPosition: end)
        records[i].phase = .running
        if !repeatLimits.isEmpty, let limit = repeatLimits[run.index], limit.end == nil {
            let cycle = records[i].duration * (records[i].autoreverses ? 2 : 1)
            repeatLimits[run.index] = (limit.cycles, now + delay + limit.cycles * cycle)
        }
    }

    /// Runs on from where the run is, towards the end its direction points at, without a
    /// jump: a continuation (or a linear scrub) continues along its curve from the current
    /// progress; otherwise a direct leg, after `delay` seconds.
    private func resume(_ run: RunHandle, delay: Double = 0) {
        let i = Int(run.index)
        let r = records[i]
        guard r.linearScrub || r.continuation else { return runLeg(run, delay: delay) }
        let target: Double = records[i].reversed ? 0 : 1
        if r.continuation, r.f1 == target, r.length > 0, r.u < 1 {
            // Paused on a continuation that still heads where the run does: its time goes on
            // from where it stopped, along the same leg (UIKit resumes the paused layer time),
            // so the curve neither starts over nor takes its initial velocity again.
            records[i].start = now - r.u * r.length
            records[i].running = true
            records[i].order = nextOrder
            nextOrder &+= 1
            markStale(i)
            dirty = true
            records[i].phase = .running
            return
        }
        startLeg(run, to: target, length: abs(target - r.f) * r.duration, startTime: now,
                 continuation: r.continuation ? legCurves[Int32(i)] ?? .linear : recordCurves[i])
        records[i].phase = .running
    }

    /// The record back at rest (fraction 0, no leg), keeping the run's timing, options and
    /// state-machine fields.
    func resetRecord(_ i: Int) {
        records[i].running = false
        records[i].needsUpdate = false
        records[i].linearScrub = false
        records[i].continuation = false
        records[i].endPosition = .end
        setLegCurve(.linear, ofRecord: i)
        records[i].start = 0
        records[i].length = 0
        records[i].f0 = 0
        records[i].f1 = 1
        records[i].f = 0
        records[i].u = 0
        records[i].progressX = 0
        records[i].order = nextOrder
        nextOrder &+= 1
    }

    /// The run is inactive: its animations are spent.
    func becomeInactive(_ i: Int) {
        if !waitingStarts.isEmpty { waitingStarts[Int32(i)] = nil }
        records[i].phase = .inactive
        records[i].hasAnimations = false
        records[i].animatesLanes = false
    }
}
