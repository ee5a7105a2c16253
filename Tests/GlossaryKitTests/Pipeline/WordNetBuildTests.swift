import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// Whole builds that take definitions from the real WordNet (Debian's data): term pages, the terms JSON, word forms,
/// the summary's counts, and the same bytes however many threads render.
@Suite struct WordNetBuildTests {
    /// A theme whose term page prints what a WordNet definition gives, line by line.
    static let theme: [String: String] = [
        "themes/default/templates/page.mustache": "{{{page.content}}}\n",
        "themes/default/templates/term.mustache": """
        {{term.word}}{{#term.is_wordnet}} (WordNet){{/term.is_wordnet}}{{#term.is_dictionary}} (dictionary){{/term.is_dictionary}}
        {{#term.meanings}}{{part_of_speech}}
        {{#definitions}}{{number}}. {{definition}}{{#examples}} “{{.}}”{{/examples}}{{#synonyms}} ={{word}}{{/synonyms}}
        {{/definitions}}{{/term.meanings}}{{#term.licenses}}licence: {{name}} {{url}}
        {{/term.licenses}}{{#term.source_urls}}source: {{.}}
        {{/term.source_urls}}{{#term.forms_used}}form used: {{.}}
        {{/term.forms_used}}{{#term.used_on}}used on: {{url}}
        {{/term.used_on}}
        """,
        "themes/default/templates/terms.mustache": "{{#letters}}{{#terms}}{{word}}: {{summary}}\n{{/terms}}{{/letters}}",
        "themes/default/templates/search.mustache": "search\n",
        "themes/default/templates/404.mustache": "404\n",
    ]

    static func site(_ files: [String: String]) throws -> URL {
        let root = try InlineSite.temporaryFolder("glossary-wordnet-build")
        try InlineSite.write(theme.merging(["glossary.yml": "title: Site\n"]) { $1 }.merging(files) { $1 }, into: root)
        return root
    }

    static func build(_ root: URL, jobs: Int = 2, wordNetFolder: String? = nil) async -> BuildResult {
        var options = BuildOptions(source: root)
        options.offline = true
        options.jobs = jobs
        options.wordNetFolder = wordNetFolder
        return await SiteBuilder(options: options).build(into: MemorySink())
    }

    static func text(_ result: BuildResult, _ path: String) -> String? {
        result.output?.files[path].map { String(decoding: $0, as: UTF8.self) }
    }

    /// The exports say a WordNet definition is WordNet's, with its licence and no fetch date.
    @Test func theExportsNameWordNetAsTheSource() async throws {
        let root = try Self.site(["content/index.md": "Write in [[ink]].\n"])
        defer { try? FileManager.default.removeItem(at: root) }

        let result = await Self.build(root)

        let json = try #require(Self.text(result, "glossary.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let terms = try #require(document["terms"] as? [[String: Any]])
        let source = try #require(terms.first { $0["key"] as? String == "ink" }?["source"] as? [String: Any])
        #expect(source["kind"] as? String == "wordnet")
        #expect(source["retrieved"] is NSNull)
        #expect((source["licenses"] as? [[String: Any]])?.first?["name"] as? String == "WordNet 3.0")
        #expect(source["urls"] as? [String] == [WordNet.sourceURL])
        let csv = try #require(Self.text(result, "glossary.csv"))
        #expect(
            csv.contains(",\"wordnet\",\"https://wordnet.princeton.edu/\",\"WordNet 3.0 (https://wordnet.princeton.edu/license-and-commercial-use)\","),
            "\(csv)")
    }

    @Test func anOfflineBuildWithAnEmptyCacheResolvesThroughWordNet() async throws {
        let root = try Self.site(["content/index.md": "Write in [[ink]], not [[zzqx]].\n"])
        defer { try? FileManager.default.removeItem(at: root) }

        let result = await Self.build(root)

        #expect(
            Self.text(result, "terms/ink/index.html") == """
                ink (WordNet)
                noun
                1. a liquid used for printing or writing or drawing
                2. dark protective fluid ejected into the water by cuttlefish and other cephalopods
                verb
                1. append one&#39;s signature to “They inked the contract”
                2. mark, coat, cover, or stain with ink “he inked his finger”
                3. fill with ink “ink a pen”
                licence: WordNet 3.0 https://wordnet.princeton.edu/license-and-commercial-use
                source: https://wordnet.princeton.edu/
                used on: /

                """)
        let json = try #require(Self.text(result, "terms/index.json"))
        #expect(json.contains(#""slug":"ink","source":"wordnet","summary":"a liquid used for printing or writing or drawing""#), "\(json)")
        #expect(result.stats.terms == 1 && result.stats.fromWordNet == 1 && result.stats.unresolved == 1)
        #expect(
            result.diagnostics.map(\.description) == [
                "content/index.md:1:23: warning: no definition found for 'zzqx' (offline, and not in the cache) [unknown-term]"
            ])
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(".glossary/cache").path), "WordNet's answers are not cached")
    }

    /// `[[keyboards]]` links to keyboard's page, which lists the form; there is no page for the form itself.
    @Test func aFormLinksToItsBaseTermWhosePageListsIt() async throws {
        let root = try Self.site([
            "content/index.md": "[[Keyboards]], [[geese]] and [[glasses]].\n",
            "content/more.md": "One [[goose]].\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }

        let result = await Self.build(root)

        let page = try #require(Self.text(result, "index.html"))
        #expect(page.contains(#"<a class="term" href="/terms/keyboard/" data-term="keyboard">Keyboards</a>"#), "\(page)")
        #expect(page.contains(#"<a class="term" href="/terms/goose/" data-term="goose">geese</a>"#))
        #expect(page.contains(#"<a class="term" href="/terms/glasses/" data-term="glasses">glasses</a>"#), "a word of its own")
        #expect(Self.text(result, "terms/keyboard/index.html")?.hasSuffix("form used: keyboards\nused on: /\n") == true)
        #expect(Self.text(result, "terms/goose/index.html")?.hasSuffix("form used: geese\nused on: /\nused on: /more/\n") == true)
        #expect(
            Set(result.output?.files.keys.filter { $0.hasPrefix("terms/") && $0.hasSuffix("/index.html") } ?? []) == [
                "terms/index.html", "terms/keyboard/index.html", "terms/goose/index.html", "terms/glasses/index.html",
            ])
        #expect(result.stats.terms == 3 && result.stats.fromWordNet == 3 && result.stats.unresolved == 0)
    }

    /// libwordnet takes its turns behind one lock: a site of many WordNet terms renders to the same bytes on one
    /// thread and on eight.
    @Test func eightJobsGiveTheBytesOfOne() async throws {
        let nouns = try String(contentsOfFile: WordNet.debianDataFolder + "/index.noun", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix(" ") }.compactMap { $0.split(separator: " ").first }
            .filter { $0.allSatisfy(\.isLetter) }.prefix(400).map(String.init)
        var files: [String: String] = [:]
        for (index, chunk) in stride(from: 0, to: nouns.count, by: 20).map({ Array(nouns[$0..<min($0 + 20, nouns.count)]) }).enumerated() {
            // Forms too: a plural of each word where English makes one plainly.
            files["content/p\(index).md"] = chunk.map { "[[\($0)]] [[\($0)s]]" }.joined(separator: " ") + "\n"
        }
        let root = try Self.site(files)
        defer { try? FileManager.default.removeItem(at: root) }

        let one = await Self.build(root, jobs: 1)
        let eight = await Self.build(root, jobs: 8)

        #expect(one.stats.fromWordNet >= 350, "\(one.stats)")
        #expect(one.diagnostics == eight.diagnostics)
        let files1 = try #require(one.output?.files)
        let files8 = try #require(eight.output?.files)
        #expect(files1.keys.sorted() == files8.keys.sorted())
        #expect(files1.filter { files8[$0.key] != $0.value }.keys.sorted() == [])
    }

    @Test func whenWordNetCantBeOpenedTheBuildWarnsOnceAndGoesOn() async throws {
        let root = try Self.site(["content/index.md": "[[ink]] and [[quill]].\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = root.appendingPathComponent("no-wordnet").path

        let result = await Self.build(root, wordNetFolder: missing)

        #expect(
            result.diagnostics.map(\.description) == [
                "content/index.md:1:1: warning: no definition found for 'ink' (offline, and not in the cache) [unknown-term]",
                "content/index.md:1:13: warning: no definition found for 'quill' (offline, and not in the cache) [unknown-term]",
                "warning: no WordNet data folder at \(missing) (install wordnet-base, or set WNSEARCHDIR to the folder holding index.noun); building without WordNet [wordnet-unavailable]",
            ])
        #expect(result.output != nil, "the build went on")
    }

    @Test func aSiteThatLeavesWordNetOutNeverAsksIt() async throws {
        let root = try Self.site([
            "glossary.yml": "title: Site\ndictionary:\n  providers: [api]\n",
            "content/index.md": "[[ink]].\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }

        let result = await Self.build(root, wordNetFolder: root.appendingPathComponent("no-wordnet").path)

        #expect(
            result.diagnostics.map(\.description) == [
                "content/index.md:1:1: warning: no definition found for 'ink' (offline, and not in the cache) [unknown-term]"
            ])
    }
}
