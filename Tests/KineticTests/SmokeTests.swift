import Kinetic
import XCTest

final class SmokeTests: XCTestCase {
    func testEase() { XCTAssertEqual(CubicBezier.ease.value(at: 0), 0) }
}
