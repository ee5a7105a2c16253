// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Glossary",
    products: [
        .executable(name: "glossary", targets: ["glossary"]),
        .library(name: "GlossaryKit", targets: ["GlossaryKit"]),
    ],
    targets: [
        .systemLibrary(name: "CCmark", path: "Sources/CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        .systemLibrary(name: "CYAML", path: "Sources/CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libwordnet has no pkg-config file; the module map links it by name.
        .systemLibrary(name: "CWordNet", path: "Sources/CWordNet", providers: [.apt(["wordnet-dev"])]),
        .target(name: "GlossaryKit", dependencies: ["CCmark", "CYAML", "CCurl", "CWordNet"]),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "GlossaryServer", dependencies: ["GlossaryKit", "CMicroHTTPD"]),
        .target(name: "GlossaryCLI", dependencies: ["GlossaryKit", "GlossaryServer"]),
        .executableTarget(name: "glossary", dependencies: ["GlossaryCLI"]),
        // bench/wordnet-bench.sh: WordNet lookup speed; also `--show WORD` for a look at a conversion.
        .executableTarget(name: "wordnet-bench", dependencies: ["GlossaryKit"], path: "bench/WordNetBench"),
        // Test support: a scripted HTTP server on loopback and the shared API fixtures, for both test targets.
        .target(name: "LoopbackServer", path: "Tests/LoopbackServer"),
        .testTarget(name: "GlossaryKitTests", dependencies: ["GlossaryKit", "LoopbackServer", "wordnet-bench"]),
        .testTarget(name: "GlossaryServerTests", dependencies: ["GlossaryServer", "GlossaryKit", "glossary", "LoopbackServer"]),
        .testTarget(name: "GlossaryCLITests", dependencies: ["GlossaryCLI", "GlossaryKit", "glossary", "LoopbackServer"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
