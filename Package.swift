// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Kinetic",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Kinetic", targets: ["Kinetic"]),
        .library(name: "KineticUI", targets: ["KineticUI"]),
        .executable(name: "kinetic", targets: ["kinetic"]),
        // The C interface (Sources/KineticC/include/kinetic.h): a shared library for C and FFIs.
        .library(name: "KineticC", type: .dynamic, targets: ["KineticC"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.0.0"),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .systemLibrary(
            name: "CBLAS",
            pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev"])]
        ),
        // Inline C helpers for single-instruction vector operations (kinetic_simd.h).
        .target(name: "KineticSIMD"),
        .target(
            name: "Kinetic",
            dependencies: [
                "CBLAS",
                "KineticSIMD",
                .product(name: "RealModule", package: "swift-numerics"),
            ]
        ),
        .target(
            name: "KineticUI",
            dependencies: ["Kinetic"]
        ),
        .target(
            name: "KineticC",
            dependencies: ["Kinetic"]
        ),
        .executableTarget(
            name: "kinetic",
            dependencies: [
                "Kinetic",
                "KineticUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "KineticTests",
            dependencies: ["Kinetic"]
        ),
        .testTarget(
            name: "KineticCTests",
            dependencies: ["KineticC", "Kinetic"],
            // The C program and the ctypes script run from `make test-c`, not from XCTest.
            exclude: ["kinetic_test.c", "kinetic_test_store.c", "kinetic_test.h", "kinetic_ctypes.py"]
        ),
        .testTarget(
            name: "KineticUITests",
            dependencies: ["KineticUI", "Kinetic"]
        ),
        .executableTarget(
            name: "KineticBenchmarks",
            dependencies: [
                "Kinetic",
                "KineticC",
                "KineticUI",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/KineticBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
