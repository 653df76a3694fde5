// The build configuration: with the OpenBLAS trait (the default on Linux) every backend runs;
// without it (`--disable-default-traits`, and on Apple platforms) `.blas` is refused with a
// typed error by every kernel, before anything is written, and `.automatic` runs native.
// `make test` sets KINETIC_EXPECT_BLAS to the configuration it built, so a build that
// silently lost (or kept) BLAS fails here.
import Foundation
import Kinetic
import XCTest

final class BuildConfigurationTests: XCTestCase {
    func testBLASAvailabilityIsTheConfigurationThatWasBuilt() throws {
        guard let expected = ProcessInfo.processInfo.environment["KINETIC_EXPECT_BLAS"] else {
            throw XCTSkip("KINETIC_EXPECT_BLAS is not set (make test sets it)")
        }
        XCTAssertEqual(BLASRuntime.isAvailable, expected == "1",
                       "KINETIC_EXPECT_BLAS=\(expected), but BLASRuntime.isAvailable is \(BLASRuntime.isAvailable)")
    }

    func testAvailableBackendsFollowTheBuild() {
        XCTAssertEqual(Backend.blas.isAvailable, BLASRuntime.isAvailable)
        XCTAssertTrue(Backend.native.isAvailable)
        XCTAssertTrue(Backend.automatic.isAvailable)
        XCTAssertEqual(Backend.available, BLASRuntime.isAvailable ? Backend.allCases : [.native, .automatic])
        if BLASRuntime.isAvailable {
            XCTAssertGreaterThanOrEqual(BLASRuntime.threadCount, 1)
        } else {
            XCTAssertEqual(BLASRuntime.threadCount, 0)
            XCTAssertThrowsError(try BLASRuntime.setThreadCount(1)) {
                XCTAssertEqual($0 as? BackendError, .unavailable(.blas))
            }
        }
        // A bad count is a parameter error in either configuration.
        XCTAssertThrowsError(try BLASRuntime.setThreadCount(0)) {
            XCTAssertEqual(($0 as? ParameterError)?.parameter, "count")
        }
    }

    /// OpenBLAS is loaded at run time, not linked: with BLAS, asking for the backend maps
    /// `libopenblas` into the process and leaves it at one thread; without, nothing maps it.
    /// (That nothing maps it before a BLAS routine runs is checked from C, in a fresh process,
    /// by `kinetic_test_load`; nothing built links it, by `make check-no-openblas`.)
    func testOpenBLASIsLoadedAtRunTimeAndSetToOneThread() throws {
        #if os(Linux)
        let available = BLASRuntime.isAvailable
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        XCTAssertEqual(maps.contains("libopenblas"), available,
                       "libopenblas mapped: \(maps.contains("libopenblas")), BLAS available: \(available)")
        if available {
            try BLASRuntime.setThreadCount(BLASRuntime.defaultThreadCount)
            XCTAssertEqual(BLASRuntime.threadCount, BLASRuntime.defaultThreadCount)
        }
        #else
        throw XCTSkip("OpenBLAS is a Linux backend")
        #endif
    }

    func testUnavailableBackendErrorNamesTheBackendAndTheTrait() {
        let message = BackendError.unavailable(.blas).description
        XCTAssertTrue(message.contains(".blas"), message)
        XCTAssertTrue(message.contains("OpenBLAS"), message)
    }

    /// Every kernel, asked for `.blas` in a build without it, throws `.unavailable(.blas)` and
    /// leaves its output as it was, at every size (empty included); `.automatic` gives the
    /// native result bit for bit.
    func testEveryKernelRefusesBLASWithoutItAndAutomaticRunsNative() throws {
        try XCTSkipIf(BLASRuntime.isAvailable, "this build has BLAS; BatchKernelTests compares the backends")
        for n in [0, 1, 7, 1_000] {
            let a = (0 ..< n).map { Double($0) * 0.25 - 3 }, b = (0 ..< n).map { 1 - Double($0) / 7 }
            let p = (0 ..< n).map { Double($0 % 11) / 10 }
            func run(_ backend: Backend, _ body: (UnsafeMutableBufferPointer<Double>) throws -> Void,
                     count: Int) -> Result<[Double], BackendError> {
                var out = [Double](repeating: 42, count: count)
                do {
                    try out.withUnsafeMutableBufferPointer { try body($0) }
                    return .success(out)
                } catch let error as BackendError {
                    XCTAssertEqual(out, [Double](repeating: 42, count: count), "output changed before the refusal")
                    return .failure(error)
                } catch {
                    XCTFail("unexpected \(error)")
                    return .success([])
                }
            }
            let kernels: [(String, Int, (Backend, UnsafeMutableBufferPointer<Double>) throws -> Void)] = [
                ("shared progress", n, { backend, o in
                    try a.withUnsafeBufferPointer { a in
                        try b.withUnsafeBufferPointer { b in
                            try Batch.interpolate(from: a, delta: b, progress: 0.3, into: o, backend: backend)
                        }
                    }
                }),
                ("per-lane progress", n, { backend, o in
                    try a.withUnsafeBufferPointer { a in
                        try b.withUnsafeBufferPointer { b in
                            try p.withUnsafeBufferPointer { p in
                                try Batch.interpolate(from: a, delta: b, progress: p, into: o, backend: backend)
                            }
                        }
                    }
                }),
                ("compose", n, { backend, o in
                    let c = a + b
                    try c.withUnsafeBufferPointer { c in
                        try Batch.compose(c, contributionCount: 2, into: o, backend: backend)
                    }
                }),
                ("bake", 3 * n, { backend, o in
                    let keys = a + b
                    try keys.withUnsafeBufferPointer { keys in
                        try [0, 0.5, 1].withUnsafeBufferPointer { progress in
                            try Batch.bake(progress: progress, keys: keys, into: o, backend: backend)
                        }
                    }
                }),
            ]
            for (name, count, kernel) in kernels {
                let refused = run(.blas, { try kernel(.blas, $0) }, count: count)
                XCTAssertEqual(refused, .failure(.unavailable(.blas)), "\(name), n = \(n)")
                let automatic = run(.automatic, { try kernel(.automatic, $0) }, count: count)
                let native = run(.native, { try kernel(.native, $0) }, count: count)
                XCTAssertEqual(automatic, native, "\(name), n = \(n): .automatic differs from .native")
            }
        }
    }

    func testSpringGroupStoreAndKeyframesRefuseBLASWithoutItAndKeepTheirState() throws {
        try XCTSkipIf(BLASRuntime.isAvailable, "this build has BLAS")
        let group = try SpringGroup(spring: .coreAnimationDefault, displacements: [-1, 2, 0.5], velocities: [0, 1, -3])
        XCTAssertThrowsError(try group.step(over: 1.0 / 60, backend: .blas)) {
            XCTAssertEqual($0 as? BackendError, .unavailable(.blas))
        }
        XCTAssertEqual(group.displacement(at: 1), 2)
        XCTAssertEqual(group.velocity(at: 2), -3)
        try group.step(over: 1.0 / 60, backend: .automatic)
        XCTAssertNotEqual(group.displacement(at: 1), 2)

        let store = BatchStore()
        let springs = try store.addSprings(.coreAnimationDefault, targets: [1, 2], displacements: [-1, -2])
        _ = try store.addGroup(from: [0, 10], to: [1, 20], progress: 0.5)
        try store.evaluate()
        let before = try store.values(of: springs)
        XCTAssertThrowsError(try store.tick(over: 1.0 / 60, backend: .blas)) {
            XCTAssertEqual($0 as? BackendError, .unavailable(.blas))
        }
        XCTAssertThrowsError(try store.evaluate(backend: .blas))
        XCTAssertEqual(try store.values(of: springs), before, "a refused tick moved the springs")

        let batch = try KeyframeBatch(tracks: [try KeyframeTrack(keyTimes: [0, 1], values: [0.0, 4])])
        var out = [7.0]
        XCTAssertThrowsError(try out.withUnsafeMutableBufferPointer { try batch.evaluate(at: 0.5, into: $0, backend: .blas) }) {
            XCTAssertEqual($0 as? BackendError, .unavailable(.blas))
        }
        XCTAssertEqual(out, [7])
        try out.withUnsafeMutableBufferPointer { try batch.evaluate(at: 0.5, into: $0, backend: .automatic) }
        XCTAssertEqual(out, [2])
    }
}
