// swift-tools-version: 6.1
import PackageDescription

// Kinetic's package-benchmark suites, as a package of their own: it depends on the root
// package by path, so a package that depends on Kinetic resolves no benchmark dependency
// (package-benchmark and its malloc interposer are needed here only).
//
// Run from the repository root:  make bench   (or: swift package --package-path Benchmarks
// --disable-sandbox benchmark), or from this folder:  swift package --disable-sandbox benchmark
//
// The OpenBLAS trait of Kinetic (its default) is named explicitly: the BLAS-against-native
// benchmarks run `.blas`, which a build without the trait refuses.
let package = Package(
    name: "KineticBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Kinetic", path: "..", traits: ["OpenBLAS"]),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "KineticBenchmarks",
            dependencies: [
                .product(name: "Kinetic", package: "Kinetic"),
                .product(name: "KineticC", package: "Kinetic"),
                .product(name: "KineticUI", package: "Kinetic"),
                .product(name: "Benchmark", package: "benchmark"),
                "CLoops",
            ],
            path: "KineticBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        // The C side of the C-interface benchmarks: loops that call kinetic.h from C, and a
        // browser-style solver in C (CInterfaceBenchmarks.swift).
        .target(
            name: "CLoops",
            dependencies: [.product(name: "KineticC", package: "Kinetic")],
            path: "CLoops"
        ),
    ],
    swiftLanguageModes: [.v6]
)
