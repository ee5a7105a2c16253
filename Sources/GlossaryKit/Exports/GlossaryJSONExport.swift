import Foundation

/// `glossary.json`: every term of the glossary as data for other tools, in the shape `docs/glossary.schema.json`
/// describes. Pretty-printed with sorted keys, so a change to one term is a small diff.
enum GlossaryJSONExport {
    /// Bumped when a field changes meaning or goes away (new fields don't bump it).
    static let format = 1

    static func text(_ export: GlossaryExport) -> String {
        String(decoding: data(export), as: UTF8.self)
    }

    /// `text(_:)` as UTF-8 bytes, made without the text as a `String` (it is megabytes).
    static func data(_ export: GlossaryExport) -> Data {
        var bytes = GrowingBytes()
        write(export, into: &bytes)
        return bytes.data()
    }

    /// The file appended to `out` a term at a time (`term`), so that written to a `StreamedFile` it is never whole in
    /// memory: the terms as values would take several times the file's size, on top of the text.
    /// `placed` is told where each term's object went (its index, and its first and end byte offsets).
    static func write<Output: TextOutput & ~Copyable>(
        _ export: GlossaryExport, into out: inout Output, placed: (Int, Int, Int) -> Void = { _, _, _ in }
    ) {
        JSONWriter.write(
            header(export), streaming: "terms", count: export.terms.count, pretty: true, htmlSafe: false, terminator: "\n", into: &out, placed: placed
        ) {
            term(export.terms[$0])
        }
    }

    /// The document as one value: what `text` writes, made whole (the reference its tests compare with).
    static func document(_ export: GlossaryExport) -> JSONValue {
        .object(header(export) + [("terms", .array(export.terms.map(term)))])
    }

    static func header(_ export: GlossaryExport) -> [(key: String, value: JSONValue)] {
        [
            ("format", .number(String(format))),
            ("title", .string(export.title)),
            ("description", optional(export.description)),
            ("language", .string(export.language)),
            ("url", .string(export.root)),
            ("absolute_urls", .bool(export.isAbsolute)),
        ]
    }

    static func term(_ term: GlossaryExport.Term) -> JSONValue {
        .object([
            ("key", .string(term.key)),
            ("word", .string(term.word)),
            ("sense", optional(term.sense)),
            ("slug", .string(term.slug)),
            ("url", .string(term.url)),
            ("summary", optional(term.summary)),
            ("definition", .object([("text", .string(term.definitionText)), ("html", .string(term.definitionHTML))])),
            ("part_of_speech", optional(term.partOfSpeech)),
            ("phonetic", optional(term.phonetic)),
            ("audio", .array(term.audio.map(audio))),
            ("aliases", .array(term.aliases.map(JSONValue.string))),
            ("forms", .array(term.forms.map(JSONValue.string))),
            (
                "source",
                .object([
                    ("kind", .string(term.source.kind)),
                    ("urls", .array(term.source.urls.map(JSONValue.string))),
                    ("licenses", .array(term.source.licenses.map(license))),
                    ("retrieved", optional(term.source.retrieved)),
                ])
            ),
            ("pages", .array(term.pages.map { .object([("title", .string($0.title)), ("url", .string($0.url))]) })),
            ("statuses", .object(term.statuses.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.string($0.value)) })),
            ("use", optional(term.use)),
            ("language", optional(term.language)),
            ("concept", optional(term.concept)),
        ])
    }

    static func audio(_ audio: GlossaryExport.Audio) -> JSONValue {
        .object([
            ("url", .string(audio.url)),
            ("accent", optional(audio.accent)),
            ("text", optional(audio.text)),
            ("source_url", optional(audio.sourceURL)),
            ("license", audio.license.map(license) ?? .null),
        ])
    }

    static func license(_ license: GlossaryExport.License) -> JSONValue {
        .object([("name", .string(license.name)), ("url", optional(license.url))])
    }

    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
}
