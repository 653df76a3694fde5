import Foundation
import Kinetic
import KineticC
import XCTest

/// One version, reported the same everywhere: `ReleaseVersion` (the one place it is set),
/// `Kinetic.version`, `kn_version()` / `kn_version_string()`, the header's `KN_VERSION_`
/// macros as written in `kinetic.h`, and `CHANGELOG.md`'s newest release. `kinetic.pc` and
/// `kinetic --version` are checked against the library by `make test-c` and `CLITests`.
final class VersionTests: XCTestCase {
    private var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func testVersionIsSemanticAndStartsAtTheReleaseLine() {
        XCTAssertEqual(Kinetic.version, "\(ReleaseVersion.current.major).\(ReleaseVersion.current.minor).\(ReleaseVersion.current.patch)")
        XCTAssertEqual(Kinetic.version, ReleaseVersion.current.description)
        XCTAssertEqual(Kinetic.version.split(separator: ".").count, 3)
        XCTAssertTrue([ReleaseVersion.current.major, ReleaseVersion.current.minor, ReleaseVersion.current.patch].allSatisfy { $0 >= 0 })
        XCTAssertLessThan(ReleaseVersion(major: 0, minor: 1, patch: 9), ReleaseVersion(major: 0, minor: 2, patch: 0))
        XCTAssertLessThan(ReleaseVersion(major: 0, minor: 9, patch: 9), ReleaseVersion(major: 1, minor: 0, patch: 0))
        XCTAssertGreaterThanOrEqual(ReleaseVersion.current, ReleaseVersion(major: 0, minor: 2, patch: 0))
    }

    func testCLibraryReportsTheSameVersion() {
        var major: Int32 = -1, minor: Int32 = -1, patch: Int32 = -1
        XCTAssertEqual(kn_version(&major, &minor, &patch), 0)
        XCTAssertEqual([Int(major), Int(minor), Int(patch)], [ReleaseVersion.current.major, ReleaseVersion.current.minor, ReleaseVersion.current.patch])
        XCTAssertEqual(String(cString: kn_version_string()), Kinetic.version)
    }

    func testHeaderMacrosMatchTheVersion() throws {
        let header = try String(contentsOf: repositoryRoot.appendingPathComponent("Sources/KineticC/include/kinetic.h"), encoding: .utf8)
        func macro(_ name: String) -> Int? {
            for line in header.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if fields.count == 3, fields[0] == "#define", fields[1] == name { return Int(fields[2]) }
            }
            return nil
        }
        XCTAssertEqual(macro("KN_VERSION_MAJOR"), ReleaseVersion.current.major, "kinetic.h KN_VERSION_MAJOR")
        XCTAssertEqual(macro("KN_VERSION_MINOR"), ReleaseVersion.current.minor, "kinetic.h KN_VERSION_MINOR")
        XCTAssertEqual(macro("KN_VERSION_PATCH"), ReleaseVersion.current.patch, "kinetic.h KN_VERSION_PATCH")
    }

    func testChangelogsNewestReleaseIsTheVersion() throws {
        let changelog = try String(contentsOf: repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        // Keep a Changelog: "## [Unreleased]" may come first, then "## [x.y.z] - YYYY-MM-DD".
        let releases = changelog.split(separator: "\n").filter { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        let newest = try XCTUnwrap(releases.first, "CHANGELOG.md has no release heading")
        XCTAssertTrue(newest.hasPrefix("## [\(Kinetic.version)]"), "newest CHANGELOG release is '\(newest)', the version is \(Kinetic.version)")
    }
}
