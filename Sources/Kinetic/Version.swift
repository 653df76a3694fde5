// Not called `KineticVersion`: the symbol-graph extractor drops a type named after its
// module followed by `Version` (as it drops frameworks' generated version symbols), so DocC
// could not document it.

/// A Kinetic release version in semantic-versioning form: major.minor.patch.
///
/// ``current`` is the one place Kinetic's version is set. The C header's
/// `KN_VERSION_MAJOR`, `KN_VERSION_MINOR` and `KN_VERSION_PATCH` macros, `kn_version()`,
/// `kinetic.pc` and `kinetic --version` all report it, and the test suite fails if any of
/// them disagrees; `make set-version V=x.y.z` rewrites this file and the header together.
public struct ReleaseVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version: incremented for changes that break source compatibility (before
    /// 1.0.0, the minor version is).
    public let major: Int
    /// The minor version: incremented for additions.
    public let minor: Int
    /// The patch version: incremented for fixes.
    public let patch: Int

    /// Creates a version; each part is ≥ 0.
    public init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// The version of this build of Kinetic.
    public static let current = ReleaseVersion(major: 0, minor: 2, patch: 0)

    /// The version as text, `"major.minor.patch"`, e.g. `"0.2.0"`.
    public var description: String { "\(major).\(minor).\(patch)" }

    /// Orders versions by major, then minor, then patch.
    public static func < (a: ReleaseVersion, b: ReleaseVersion) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }
}

/// Kinetic's release version as text, `"major.minor.patch"`: the description of
/// ``ReleaseVersion/current``. Spelled `Kinetic.version` where another module also has a
/// `version`.
public var version: String { ReleaseVersion.current.description }
