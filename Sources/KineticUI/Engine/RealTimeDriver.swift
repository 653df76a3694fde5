import Kinetic

/// Drives a ``ManualClock`` from real time at a fixed frame rate, for programs that want
/// animations to play by themselves (an interactive tool, a preview). Tests and exports
/// drive the clock by hand instead.
///
/// Frame `n` advances the clock to `start + n / frameRate` (no accumulated rounding);
/// frames that are late are not replayed — the clock jumps to the current frame.
@MainActor
public final class RealTimeDriver {
    /// The clock being driven.
    public let clock: ManualClock
    /// Frames per second.
    public let frameRate: Double
    private var task: Task<Void, Never>?

    /// A driver for `clock` at `frameRate` frames per second (finite, > 0 and ≤ 1000).
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` for a bad frame rate.
    public init(clock: ManualClock, frameRate: Double = 60) throws {
        do {
            try ParameterError.requirePositive(frameRate, "frameRate")
            guard frameRate <= 1000 else {
                throw ParameterError.outOfRange(parameter: "frameRate", value: frameRate, expected: "(0, 1000]")
            }
        } catch let error as ParameterError {
            throw AnimatorError.invalidParameter(error)
        }
        self.clock = clock
        self.frameRate = frameRate
    }

    /// Whether the driver is running.
    public var isRunning: Bool { task != nil }

    /// Starts advancing the clock once per frame (from the clock's current time).
    /// - Parameter frames: stop after this many frames (nil: until ``stop()``).
    public func start(frames: Int? = nil) {
        guard task == nil else { return }
        let origin = clock.now
        let rate = frameRate
        let wall = ContinuousClock()
        let begin = wall.now
        task = Task { @MainActor [weak self] in
            var frame = 0
            while !Task.isCancelled {
                if let frames, frame >= frames { break }
                let elapsed = begin.duration(to: wall.now)
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                frame = Swift.max(frame + 1, Int((seconds * rate).rounded(.down)))
                let due = begin.advanced(by: .nanoseconds(Int64((Double(frame) / rate * 1e9).rounded())))
                try? await Task.sleep(until: due, clock: wall)
                guard let self, !Task.isCancelled else { break }
                try? self.clock.advance(to: origin + Double(frame) / rate)
            }
            self?.task = nil
        }
    }

    /// Stops advancing the clock.
    public func stop() {
        task?.cancel()
        task = nil
    }

    /// Waits until the driver stops (after its frame count, or ``stop()``).
    public func waitUntilStopped() async {
        await task?.value
    }
}
