// swift-tools-version:6.1
// A separate package so the benchmark never slows the main build or test run.
import PackageDescription

let package = Package(
    name: "HighlightBench",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Tidemark", path: "../..")],
    targets: [
        .executableTarget(
            name: "HighlightBench",
            dependencies: [.product(name: "TidemarkHighlight", package: "Tidemark")]),
    ],
    swiftLanguageModes: [.v6]
)
