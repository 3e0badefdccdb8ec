// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Tidemark",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Tidemark", targets: ["Tidemark"]),
        .library(name: "TidemarkRender", targets: ["TidemarkRender"]),
        .library(name: "TidemarkHighlight", targets: ["TidemarkHighlight"]),
        .library(name: "TidemarkAttributed", targets: ["TidemarkAttributed"]),
        .executable(name: "tidemark", targets: ["TidemarkCLI"]),
        .executable(name: "tidemark-spec", targets: ["TidemarkSpecRunner"]),
        .executable(name: "tidemark-bench", targets: ["TidemarkBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Parser core: Swift standard library only.
        .target(name: "Tidemark"),
        .target(name: "TidemarkRender", dependencies: ["Tidemark"]),
        // Foundation's AttributedString, kept out of the parser and renderer.
        .target(name: "TidemarkAttributed", dependencies: ["TidemarkRender"]),
        .systemLibrary(
            name: "CTreeSitter", path: "Sources/CTreeSitter",
            pkgConfig: "tree-sitter", providers: [.apt(["libtree-sitter-dev"])]),
        .target(name: "TidemarkHighlight", dependencies: ["Tidemark", "CTreeSitter"]),
        .executableTarget(
            name: "TidemarkCLI",
            dependencies: [
                "Tidemark", "TidemarkRender", "TidemarkHighlight",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "TidemarkSpecRunner",
            dependencies: [
                "Tidemark",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "TidemarkBench", dependencies: ["Tidemark"], path: "Benchmarks/TidemarkBench"),
        .testTarget(name: "TidemarkTests", dependencies: ["Tidemark"]),
        .testTarget(name: "TidemarkRenderTests", dependencies: ["TidemarkRender"], exclude: ["Golden"]),
        .testTarget(name: "TidemarkHighlightTests", dependencies: ["TidemarkHighlight"]),
        .testTarget(name: "TidemarkAttributedTests", dependencies: ["TidemarkAttributed"]),
    ],
    swiftLanguageModes: [.v6]
)
