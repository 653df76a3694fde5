import Kinetic
import KineticPlatform
import KineticUI
import XCTest

/// The engine's memory budget (issue: ≤ 64 bytes of engine memory per animated lane) and
/// its behaviour under churn. Memory is counted from array capacities, so these are exact,
/// not timings.
@MainActor
final class EngineMemoryTests: EngineTestCase {
    /// 10,000 animators × 10 lanes (center, bounds, colour), as in the benchmark.
    func testEngineStorageIsAtMost64BytesPerAnimatedLane() async throws {
        var animators: [PropertyAnimator] = []
        for i in 0 ..< 10_000 {
            let v = View(frame: Rect(x: Double(i % 100), y: Double(i / 100), width: 10, height: 10))
            v.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.3)
            let a = try PropertyAnimator(duration: 100, curve: .easeIn, engine: engine)
            try a.addAnimations {
                v.center = Point(x: Double(i % 100) + 215, y: Double(i / 100) + 70)
                v.bounds = Rect(x: 3, y: -2, width: 30, height: 40)
                v.backgroundColor = Color(red: 0.9, green: 0.5, blue: 0.1, alpha: 0.5)
            }
            try a.startAnimation()
            animators.append(a)
        }
        try step()
        XCTAssertEqual(engine.animatedLaneCount, 100_000)
        XCTAssertEqual(engine.activeAnimatorCount, 10_000)
        let perLane = Double(engine.storageBytes) / Double(engine.animatedLaneCount)
        XCTAssertLessThanOrEqual(perLane, 64, "engine bytes per animated lane")
    }

    /// Starting and finishing animators over and over keeps the storage bounded by the most
    /// that were live at once.
    func testChurnDoesNotGrowStorage() async throws {
        let views = (0 ..< 50).map { View(frame: Rect(x: Double($0), y: 0, width: 10, height: 10)) }
        func wave(_ k: Int) throws {
            for (i, v) in views.enumerated() {
                let a = try PropertyAnimator(duration: 0.1, curve: .linear, engine: engine) {
                    v.center = Point(x: Double(i + k), y: Double(k))
                    v.alpha = k % 2 == 0 ? 0.5 : 1
                }
                try a.startAnimation()
            }
            try step(7)
        }
        try wave(0)
        let after1 = engine.storageBytes
        for k in 1 ... 300 { try wave(k) }
        XCTAssertEqual(engine.activeAnimatorCount, 0)
        XCTAssertEqual(engine.contributionCount, 0)
        XCTAssertLessThanOrEqual(engine.storageBytes, after1 * 2, "storage bounded under churn")
    }

    /// Issue 18's run budget: ≤ 512 bytes of engine memory per run. 10,000 animators that
    /// each animate one lane (so the lane's own storage is counted against the run too), all
    /// running; and the heap size of a `PropertyAnimator` object itself, on top (reported).
    func testEngineStorageIsAtMost512BytesPerRun() async throws {
        var animators: [PropertyAnimator] = []
        let views = (0 ..< 10_000).map { _ in View(frame: Rect(x: 0, y: 0, width: 10, height: 10)) }
        for v in views {
            let a = try PropertyAnimator(duration: 100, curve: .easeOut, engine: engine) { v.alpha = 0.5 }
            try a.startAnimation()
            animators.append(a)
        }
        try step()
        XCTAssertEqual(engine.activeAnimatorCount, 10_000)
        XCTAssertEqual(engine.animatedLaneCount, 10_000)
        let perRun = Double(engine.storageBytes) / 10_000
        XCTAssertLessThanOrEqual(perRun, 512, "engine bytes per run, its one lane included")
        #if os(Linux)
        // The heap block of one animator object (glibc's malloc_usable_size, looked up at run time).
        typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
        let symbol = try XCTUnwrap(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size"))
        let usableSize = unsafeBitCast(symbol, to: UsableSize.self)
        let objectBytes = usableSize(Unmanaged.passUnretained(animators[0]).toOpaque())
        print("[Engine memory] \((perRun * 10).rounded() / 10) B per run (one lane each, its storage included); "
              + "a PropertyAnimator object adds \(objectBytes) B of heap")
        XCTAssertLessThanOrEqual(objectBytes, 512)
        #endif
    }
}
