import Kinetic

/// A clock the host drives: time moves only when the host calls ``advance(by:)`` or
/// ``advance(to:)``, and every move ticks the engines attached to the clock, so the same
/// sequence of calls gives the same frames, bit for bit.
@MainActor
public final class ManualClock {
    /// The current time, seconds since the clock was made (starts at 0).
    public private(set) var now: Double = 0
    private var observers: [EngineLink] = []
    /// The number of entries the clock holds for attached engines, including engines that
    /// went away since the last advance or attach (which remove them); for diagnostics.
    public var attachedEngineCount: Int { observers.count }

    /// A clock at time 0.
    public init() {}

    /// Moves time forward by `dt` seconds and ticks every attached engine once.
    /// - Parameter dt: seconds, finite and ≥ 0 (0 ticks without moving time).
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` if `dt` is negative or not finite;
    ///   time does not move then.
    public func advance(by dt: Double) throws {
        do { try ParameterError.requireNonNegative(dt, "dt") } catch { throw AnimatorError.invalidParameter(error) }
        try advance(to: now + dt)
    }

    /// Moves time to `time` seconds and ticks every attached engine once. Prefer this over
    /// repeated `advance(by:)` for fixed frame rates (frame n at `n / rate` accumulates no
    /// rounding).
    /// - Parameter time: seconds, finite and ≥ ``now``.
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` if `time` is before ``now`` or not finite.
    public func advance(to time: Double) throws {
        do {
            try ParameterError.requireFinite(time, "time")
            guard time >= now else {
                throw ParameterError.outOfRange(parameter: "time", value: time, expected: "[\(now), ∞) (time cannot go back)")
            }
        } catch let error as ParameterError {
            throw AnimatorError.invalidParameter(error)
        }
        now = time
        observers.removeAll { $0.engine == nil }
        for observer in observers { observer.engine?.tick() }
    }

    func attach(_ engine: AnimationEngine) {
        observers.removeAll { $0.engine == nil }  // engines that went away leave no entry
        observers.append(engine.link)
    }
}
