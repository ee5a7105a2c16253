// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Glossary",
    products: [
        .executable(name: "glossary", targets: ["glossary"]),
        .library(name: "GlossaryKit", targets: ["GlossaryKit"]),
        // For the libFuzzer targets in Fuzz/, a package of their own that depends on this one by path.
        .library(name: "GlossaryServer", targets: ["GlossaryServer"]),
    ],
    targets: [
        .systemLibrary(name: "CCmark", path: "Sources/CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        .systemLibrary(name: "CYAML", path: "Sources/CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // libcurl's header only: libcurl.so.4 is loaded when a transfer first needs it (CurlTransport.swift).
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Linux system calls that need _GNU_SOURCE (renameat2), as inline wrappers; no library to link.
        .systemLibrary(name: "CSystem", path: "Sources/CSystem"),
        // libwordnet has no pkg-config file; the module map links it by name.
        .systemLibrary(name: "CWordNet", path: "Sources/CWordNet", providers: [.apt(["wordnet-dev"])]),
        // libgumbo: an HTML5 parser that gives each node's byte offset in the source, so `annotate` edits pages in place.
        .systemLibrary(name: "CGumbo", path: "Sources/CGumbo", pkgConfig: "gumbo", providers: [.apt(["libgumbo-dev"])]),
        // Snowball's stemmers, word forms beyond English; libstemmer has no pkg-config file either.
        .systemLibrary(name: "CStemmer", path: "Sources/CStemmer", providers: [.apt(["libstemmer-dev"])]),
        // libxml2, the XML parser `glossary import` reads TBX files with.
        .systemLibrary(name: "CXML2", path: "Sources/CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // Files built into the binary (the default theme, the live-reload script): each target's EmbeddedFiles.txt
        // lists them, the plugin turns them into Swift source at build time.
        .executableTarget(name: "EmbedFiles", path: "Sources/EmbedFiles"),
        .plugin(name: "EmbedFilesPlugin", capability: .buildTool(), dependencies: ["EmbedFiles"]),
        .target(
            name: "GlossaryKit", dependencies: ["CCmark", "CYAML", "CCurl", "CSystem", "CWordNet", "CGumbo", "CStemmer", "CXML2"],
            exclude: ["EmbeddedFiles.txt"], plugins: ["EmbedFilesPlugin"]),
        // libmicrohttpd's header only: libmicrohttpd.so.12 is loaded when a server first starts (HTTPServer.swift).
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(
            name: "GlossaryServer", dependencies: ["GlossaryKit", "CMicroHTTPD"], exclude: ["EmbeddedFiles.txt", "Embedded"], plugins: ["EmbedFilesPlugin"]),
        .target(name: "GlossaryCLI", dependencies: ["GlossaryKit", "GlossaryServer"]),
        // jemalloc, linked into the binary ahead of glibc's malloc: a build allocates millions of small values on both
        // cores, and jemalloc's per-thread caches make a clean build ~10% cheaper in CPU (bench/NOTES.md).
        .systemLibrary(name: "CJemalloc", path: "Sources/CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
        .executableTarget(name: "glossary", dependencies: ["GlossaryCLI", "GlossaryKit", "CJemalloc"]),
        // bench/wordnet-bench.sh: WordNet lookup speed; also `--show WORD` for a look at a conversion.
        .executableTarget(name: "wordnet-bench", dependencies: ["GlossaryKit"], path: "bench/WordNetBench"),
        // bench/pipetable-bench.sh: pipe-table detection speed on a corpus's paragraphs and on table paragraphs.
        .executableTarget(name: "pipetable-bench", dependencies: ["GlossaryKit", "CCmark"], path: "bench/PipeTableBench"),
        // bench/autolink-bench.sh: TermMatcher over a corpus's text (build, scan every / first occurrence).
        .executableTarget(name: "autolink-bench", dependencies: ["GlossaryKit"], path: "bench/AutolinkBench"),
        // bench/search-patch-bench.sh: patching the search index after one page's text changed, at 12,000 documents.
        .executableTarget(name: "search-patch-bench", dependencies: ["GlossaryKit"], path: "bench/SearchPatchBench"),
        // Test support for every test target: inline sites, the binary, a scripted HTTP server on loopback, the
        // shared API fixtures.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "GlossaryKitTests", dependencies: ["GlossaryKit", "TestSupport", "wordnet-bench"], exclude: ["Markdown/Fixtures"]),
        .testTarget(name: "GlossaryServerTests", dependencies: ["GlossaryServer", "GlossaryKit", "glossary", "TestSupport"]),
        .testTarget(name: "GlossaryCLITests", dependencies: ["GlossaryCLI", "GlossaryKit", "glossary", "TestSupport"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
