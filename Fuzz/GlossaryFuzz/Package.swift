// swift-tools-version:6.1
import PackageDescription

// The libFuzzer targets (Fuzz/README.md), in a package of their own so that `swift build` and `swift test` at
// the top never build them. `make fuzz-build` builds them with `-Xswiftc -sanitize=fuzzer,address`, which
// instruments GlossaryKit and GlossaryServer too (the C libraries are linked as they are). One combined flag:
// of two `-sanitize=` flags swiftc keeps only the last, so SwiftPM's `--sanitize=fuzzer --sanitize=address`
// loses the coverage instrumentation, and its `--sanitize=fuzzer` also makes the root package's build tool
// (EmbedFiles, a main.swift) parse as a library.
let fuzzTargets = ["FuzzFrontMatter", "FuzzMarkdown", "FuzzMustache", "FuzzCacheEntry", "FuzzAPIResponse", "FuzzRequestPath"]

let package = Package(
    name: "GlossaryFuzz",
    dependencies: [.package(name: "Glossary", path: "../..")],
    targets: [
        .systemLibrary(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", .product(name: "GlossaryKit", package: "Glossary")]),
    ]
        + fuzzTargets.map { name in
            .executableTarget(
                name: name,
                dependencies: [
                    "FuzzSupport", .product(name: "GlossaryKit", package: "Glossary"),
                    .product(name: "GlossaryServer", package: "Glossary"),
                ])
        },
    swiftLanguageModes: [.v6]
)
