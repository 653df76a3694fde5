// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Kinetic",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Kinetic", targets: ["Kinetic"]),
        .executable(name: "kinetic", targets: ["kinetic"]),
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
        .target(
            name: "Kinetic",
            dependencies: [
                "CBLAS",
                .product(name: "RealModule", package: "swift-numerics"),
            ]
        ),
        .executableTarget(
            name: "kinetic",
            dependencies: [
                "Kinetic",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "KineticTests",
            dependencies: ["Kinetic"]
        ),
        .executableTarget(
            name: "KineticBenchmarks",
            dependencies: [
                "Kinetic",
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
