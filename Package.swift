// swift-tools-version: 6.1
import PackageDescription

// OpenBLAS is the `.blas` backend of the batch kernels: a package trait, on by default, that
// takes effect on Linux only. Without it (`--disable-default-traits`, or any Apple platform)
// Kinetic builds with its native kernels alone and links no BLAS.
let blas: Set<String> = ["OpenBLAS"]

let package = Package(
    name: "Kinetic",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .visionOS(.v1)],
    products: [
        // Curves, springs, keyframes, batch kernels and sampling; no file formats, no Foundation.
        .library(name: "Kinetic", targets: ["Kinetic"]),
        // CSV tables, the JSON keyframe description (strict RFC 8259), SVG plots and atomic
        // file writing; no Foundation.
        .library(name: "KineticExport", targets: ["KineticExport"]),
        // UIKit's animation vocabulary on a headless view tree (main actor).
        .library(name: "KineticUI", targets: ["KineticUI"]),
        .executable(name: "kinetic", targets: ["kinetic"]),
        // The C interface (Sources/KineticC/include/kinetic.h): a shared library for C and FFIs.
        .library(name: "KineticC", type: .dynamic, targets: ["KineticC"]),
    ],
    traits: [
        .trait(
            name: "OpenBLAS",
            description: "The .blas batch backend through OpenBLAS's CBLAS (Linux; needs libopenblas-dev)."
        ),
        .default(enabledTraits: ["OpenBLAS"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.0.0"),
    ],
    targets: [
        // cblas.h's declarations (from libopenblas-dev); OpenBLAS itself is loaded at run time,
        // on the first BLAS call, so that loading Kinetic starts none of its threads.
        .systemLibrary(
            name: "CBLAS",
            providers: [.apt(["libopenblas-dev"])]
        ),
        // The C kernels behind the native paths (internal to Kinetic).
        .target(name: "KineticSIMD"),
        // The platform's C library (Glibc, Musl or Darwin) behind one import, and the calls
        // whose names differ (internal to the package).
        .target(name: "KineticPlatform"),
        .target(
            name: "Kinetic",
            dependencies: [
                .target(name: "CBLAS", condition: .when(platforms: [.linux], traits: blas)),
                "KineticSIMD",
                "KineticPlatform",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            swiftSettings: [
                .define("KINETIC_BLAS", .when(platforms: [.linux], traits: blas)),
            ]
        ),
        .target(
            name: "KineticExport",
            dependencies: ["Kinetic", "KineticPlatform"]
        ),
        .target(
            name: "KineticUI",
            dependencies: ["Kinetic", "KineticPlatform"]
        ),
        .target(
            name: "KineticC",
            dependencies: ["Kinetic", "KineticPlatform"],
            // Writes the installed library's linker version script (`make install`).
            exclude: ["kinetic-exports.py"]
        ),
        .executableTarget(
            name: "kinetic",
            dependencies: [
                "Kinetic",
                "KineticExport",
                "KineticUI",
                "KineticPlatform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers the test suites share (seeded random numbers, the Float80 references); in
        // no product.
        .target(
            name: "TestSupport",
            dependencies: ["KineticPlatform"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "KineticTests",
            dependencies: ["Kinetic", "KineticExport", "KineticPlatform", "TestSupport"]
        ),
        .testTarget(
            name: "KineticCTests",
            dependencies: ["KineticC", "Kinetic", "KineticUI", "TestSupport"],
            // The C programs and the scripts run from `make test-c`, not from XCTest.
            exclude: [
                "kinetic_test.c", "kinetic_test_store.c", "kinetic_test_engine.c", "kinetic_test_motion.c", "kinetic_engine_transition.c", "kinetic_test.h", "kinetic_ctypes.py",
                "kinetic_test_load.c", "kinetic_test_threads.c", "kinetic_header_test.c", "kinetic_header_test.cpp",
                "kinetic_soak.c", "kinetic_test_cpp.cpp", "rust",
                "check_install.py", "without_toolchain.sh", "HEADER_PROMISES.md",
            ]
        ),
        .testTarget(
            name: "KineticUITests",
            dependencies: ["KineticUI", "Kinetic", "KineticPlatform", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
