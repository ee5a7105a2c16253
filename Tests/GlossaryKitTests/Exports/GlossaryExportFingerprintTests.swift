import Testing

@testable import GlossaryKit

/// The export model's fingerprint stands for `glossary.json`, `.csv` and `.tbx` (a build keeps them while it holds):
/// it is the same on any number of cores, and it changes with every field of the model, wherever the term is, and with
/// the terms' order.
@Suite struct GlossaryExportFingerprintTests {
    static func term(_ number: Int) -> GlossaryExport.Term {
        GlossaryExport.Term(
            key: "w\(number)", word: "w\(number)", sense: nil, slug: "w\(number)", url: "/terms/w\(number)/", summary: nil,
            definitionText: "Word \(number).", definitionHTML: "<p>Word \(number).</p>", partOfSpeech: nil, phonetic: nil, audio: [], aliases: [], forms: [],
            source: .init(kind: "glossary", urls: [], licenses: [], retrieved: nil), pages: [])
    }

    static let export = GlossaryExport(
        title: "T", description: nil, language: "en", languages: ["en"], root: "/", isAbsolute: false, terms: (0..<600).map(term))

    @Test func itIsTheSameOnAnyNumberOfCoresAndFollowsTheTermsOrder() {
        let fingerprint = Self.export.fingerprint(jobs: 2)
        #expect(Self.export.fingerprint(jobs: 1) == fingerprint)
        var changed = [Self.export, Self.export, Self.export]
        changed[0].terms[599].definitionText = "Word 599!"
        changed[1].terms.swapAt(255, 256)
        changed[2].terms.removeLast()
        let fingerprints = changed.map { $0.fingerprint(jobs: 2) }
        #expect(Set(fingerprints + [fingerprint]).count == 4, "\(fingerprints)")
    }

    /// Each field of the model, changed on its own (a term's in the middle of a run), changes the fingerprint; and the
    /// fields changed are every field the model's types have, so a field added to the model fails this test until it
    /// is fingerprinted.
    @Test func everyFieldOfTheModelChangesIt() {
        let license = GlossaryExport.License(name: "CC BY-SA 3.0", url: nil)
        let audio = GlossaryExport.Audio(url: "https://example.org/a.mp3", accent: nil, text: nil, sourceURL: nil, license: nil)
        typealias Change = (type: String, field: String, change: (inout GlossaryExport) -> Void)
        func term(_ field: String, _ change: @escaping (inout GlossaryExport.Term) -> Void) -> Change {
            ("Term", field, { change(&$0.terms[300]) })
        }
        // The second of two recordings: a change to any of them counts.
        func recording(_ field: String, _ change: @escaping (inout GlossaryExport.Audio) -> Void) -> Change {
            ("Audio", field, { change(&$0.terms[300].audio[1]) })
        }
        let changes: [Change] = [
            ("GlossaryExport", "title", { $0.title = "U" }),
            ("GlossaryExport", "description", { $0.description = "" }),
            ("GlossaryExport", "language", { $0.language = "fr" }),
            ("GlossaryExport", "languages", { $0.languages = ["en", "fr"] }),
            ("GlossaryExport", "root", { $0.root = "/docs/" }),
            ("GlossaryExport", "isAbsolute", { $0.isAbsolute = true }),
            ("GlossaryExport", "terms", { $0.terms.append(Self.term(600)) }),
            term("key") { $0.key = "x" },
            term("word") { $0.word = "x" },
            term("sense") { $0.sense = "" },
            term("slug") { $0.slug = "x" },
            term("url") { $0.url = "/x/" },
            term("summary") { $0.summary = "" },
            term("definitionText") { $0.definitionText = "x" },
            term("definitionHTML") { $0.definitionHTML = "x" },
            term("partOfSpeech") { $0.partOfSpeech = "noun" },
            term("phonetic") { $0.phonetic = "/x/" },
            term("audio") { $0.audio.removeLast() },
            term("aliases") { $0.aliases = [""] },
            term("forms") { $0.forms = ["W300"] },
            term("source") { $0.source.kind = "wordnet" },
            term("pages") { $0.pages = [.init(title: "", url: "")] },
            term("statuses") { $0.statuses = ["w300": "deprecated"] },
            term("use") { $0.use = "x" },
            term("useSlug") { $0.useSlug = "x" },
            term("language") { $0.language = "en" },
            term("concept") { $0.concept = "c" },
            recording("url") { $0.url = "https://example.org/b.mp3" },
            recording("accent") { $0.accent = "UK" },
            recording("text") { $0.text = "/x/" },
            recording("sourceURL") { $0.sourceURL = "https://example.org/" },
            recording("license") { $0.license = license },
            ("License", "name", { $0.terms[300].source.licenses = [.init(name: "CC0", url: nil)] }),
            ("License", "url", { $0.terms[300].source.licenses = [.init(name: "CC BY-SA 3.0", url: "https://example.org/")] }),
            ("Source", "kind", { $0.terms[300].source.kind = "dictionary" }),
            ("Source", "urls", { $0.terms[300].source.urls = ["https://example.org/"] }),
            ("Source", "licenses", { $0.terms[300].source.licenses = [] }),
            ("Source", "retrieved", { $0.terms[300].source.retrieved = "2026-12-06" }),
            ("PageLink", "title", { $0.terms[300].pages = [.init(title: "Other", url: "/a/")] }),
            ("PageLink", "url", { $0.terms[300].pages = [.init(title: "A", url: "/b/")] }),
        ]
        // The term changed has one audio recording and a license to change (`Audio`, `License`), and a page (`PageLink`).
        var start = Self.export
        start.terms[300].audio = [audio, audio]
        start.terms[300].source.licenses = [license]
        start.terms[300].pages = [.init(title: "A", url: "/a/")]
        let before = start.fingerprint(jobs: 2)
        for (type, field, change) in changes {
            var changed = start
            change(&changed)
            #expect(changed.fingerprint(jobs: 2) != before, "\(type).\(field)")
        }
        let models: [(String, Any)] = [
            ("GlossaryExport", Self.export), ("Term", Self.term(0)), ("Audio", audio), ("License", license),
            ("Source", Self.term(0).source), ("PageLink", GlossaryExport.PageLink(title: "", url: "")),
        ]
        for (type, value) in models {
            let fields = Set(Mirror(reflecting: value).children.compactMap(\.label))
            #expect(fields == Set(changes.filter { $0.type == type }.map(\.field)), "\(type)")
        }
    }
}
