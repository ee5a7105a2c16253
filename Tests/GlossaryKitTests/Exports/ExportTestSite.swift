import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

/// A site written inline (`-- path --` sections), built offline into memory with the built-in theme.
struct ExportTestSite {
    let root: URL

    init(_ text: String) throws {
        root = try InlineSite.temporaryFolder("glossary-exports")
        var files = InlineSite.parse(text)
        if files["glossary.yml"] == nil { files["glossary.yml"] = "title: Test\n" }
        try InlineSite.write(files, into: root)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    var options: BuildOptions {
        var options = BuildOptions(source: root)
        options.offline = true
        options.jobs = 2
        return options
    }

    /// Builds the site; the result, and its files as text by path.
    func build() async -> (result: BuildResult, files: [String: String]) {
        let result = await SiteBuilder(options: options).build(into: MemorySink())
        var files: [String: String] = [:]
        for (path, data) in result.output?.files ?? [:] { files[path] = String(decoding: data, as: UTF8.self) }
        for (path, url) in result.output?.copies ?? [:] {
            files[path] = FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
        }
        return (result, files)
    }

    /// A cache file holding `body` (a Free Dictionary API answer, written by the tests) for `word`.
    static func cacheEntry(_ word: String, body: String) -> String {
        #"{"body":\#(body),"fetched_at":"2025-03-04T05:06:07Z","format":1,"key":"\#(word)","language":"en","status":200,"url":"https://api.dictionaryapi.dev/api/v2/entries/en/\#(word)"}"#
            + "\n"
    }

    /// The two-term site most export tests read: a team entry with an alias and links, and a cached word with a
    /// recording, under `/docs/` of an address.
    static let typeSite =
        """
        -- glossary.yml --
        title: Type & Co
        description: Words about <type>.
        site: https://docs.example.org
        base_url: /docs/
        -- content/index.md --
        ---
        title: Home
        ---
        Mind the [[Kerning]] and the [[quill]].
        -- content/guide/intro.md --
        ---
        title: Intro
        date: 2024-05-06
        ---
        On [[letter fit|pair kerning]] and [[kerning]].
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        aliases: [pair kerning, Kerning]
        part_of_speech: noun
        phonetic: /ˈkɜːnɪŋ/
        ---
        The space between two *letters*; see the [intro](../guide/intro.md) and [[quill]].

        A second paragraph.
        -- .glossary/cache/en/quill.json --

        """
        + cacheEntry("quill", body: quillBody)

    static let quillBody =
        #"[{"word":"quill","phonetic":"/kwɪl/","phonetics":[{"text":"/kwɪl/","audio":"https://media.example/quill-us.mp3","sourceUrl":"https://commons.example/quill.mp3","license":{"name":"BY-SA 4.0","url":"https://creativecommons.org/licenses/by-sa/4.0"}}],"meanings":[{"partOfSpeech":"noun","definitions":[{"definition":"A pen made from a feather."},{"definition":"A spine of a porcupine."}]},{"partOfSpeech":"verb","definitions":[{"definition":"To pleat."}]}],"license":{"name":"CC BY-SA 3.0","url":"https://creativecommons.org/licenses/by-sa/3.0"},"sourceUrls":["https://en.wiktionary.org/wiki/quill"]}]"#
}
