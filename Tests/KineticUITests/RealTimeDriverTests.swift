import Kinetic
import KineticUI
import XCTest

@MainActor
final class RealTimeDriverTests: EngineTestCase {
    /// The driver advances the clock to exact frame times (frame n at n / rate) and an
    /// animation it drives plays to its end.
    func testDriverAdvancesTheClockToFrameTimesAndPlaysAnAnimation() async throws {
        let v = box()
        var ended: ViewAnimatingPosition?
        let a = try PropertyAnimator(duration: 0.05, curve: .linear, engine: engine) { v.alpha = 0 }
        a.addCompletion { ended = $0 }
        try a.startAnimation()
        let driver = try RealTimeDriver(clock: engine.clock, frameRate: 200)
        var seen: [Double] = []
        a.isRunningDidChange = { _ in seen.append(self.engine.clock.now) }
        driver.start(frames: 20)
        XCTAssertTrue(driver.isRunning)
        await driver.waitUntilStopped()
        XCTAssertFalse(driver.isRunning)
        let now = engine.clock.now
        XCTAssertGreaterThanOrEqual(now, 0.1 - 1e-12, "20 frames at 200 Hz")
        XCTAssertEqual((now * 200).rounded(), now * 200, accuracy: 1e-9, "the clock sits on a frame time")
        XCTAssertEqual(ended, .end)
        XCTAssertEqual(v.presentation.alpha, 0)
        XCTAssertEqual(seen.count, 1, "isRunning changed once, at the end")
    }

    func testBadFrameRatesAreRejected() async throws {
        for rate in [0, -1, .nan, .infinity, 5000] {
            XCTAssertThrowsError(try RealTimeDriver(clock: engine.clock, frameRate: rate)) {
                guard case .invalidParameter = $0 as? AnimatorError else { return XCTFail("\($0)") }
            }
        }
    }

    func testStopEndsTheDriver() async throws {
        let driver = try RealTimeDriver(clock: engine.clock, frameRate: 100)
        driver.start()
        driver.stop()
        XCTAssertFalse(driver.isRunning)
        await driver.waitUntilStopped()
    }
}
