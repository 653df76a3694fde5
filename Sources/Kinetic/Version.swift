/// Kinetic's release version, in semantic-versioning form (major.minor.patch).
///
/// This is the one place the version is set. The C header's `KN_VERSION_MAJOR`,
/// `KN_VERSION_MINOR` and `KN_VERSION_PATCH` macros, `kn_version()`, `kinetic.pc` and
/// `kinetic --version` all report it, and the test suite fails if any of them disagrees;
/// `make version VERSION=x.y.z` rewrites this file and the header together.
public enum KineticVersion {
    /// The major version: incremented for changes that break source compatibility.
    public static let major = 0
    /// The minor version: incremented for additions.
    public static let minor = 2
    /// The patch version: incremented for fixes.
    public static let patch = 0

    /// The version as text, `"major.minor.patch"`, e.g. `"0.2.0"`.
    public static var string: String { "\(major).\(minor).\(patch)" }
}

/// Kinetic's release version as text, `"major.minor.patch"` (``KineticVersion/string``).
/// Spelled `Kinetic.version` where another module also has a `version`.
public var version: String { KineticVersion.string }
