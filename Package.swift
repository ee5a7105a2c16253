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
        .target(name: "GlossaryKit", dependencies: ["CCmark", "CYAML"]),
        .target(name: "GlossaryCLI", dependencies: ["GlossaryKit"]),
        .executableTarget(name: "glossary", dependencies: ["GlossaryCLI"]),
        .testTarget(name: "GlossaryKitTests", dependencies: ["GlossaryKit"]),
        .testTarget(name: "GlossaryCLITests", dependencies: ["GlossaryCLI", "GlossaryKit", "glossary"]),
    ],
    swiftLanguageModes: [.v6]
)
