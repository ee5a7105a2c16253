/// The front matter of a content page or a glossary entry (`content/glossary/*.md`).
public struct PageMetadata: Sendable, Equatable {
    public var title: String?
    public var description: String?
    /// As written, validated as `YYYY-MM-DD` or an ISO 8601 date-time.
    public var date: String?
    public var draft: Bool = false
    public var tags: [String] = []
    /// Extra terms the page declares, beyond its `[[references]]`.
    public var terms: [String] = []
    /// Ordering among sibling pages; lower first.
    public var weight: Int?
    /// `toc: false` leaves the table of contents out; nil (unset) and true keep it.
    public var toc: Bool?

    /// The word a glossary entry defines.
    public var term: String?
    public var aliases: [String] = []
    public var partOfSpeech: String?
    public var phonetic: String?
    public var synonyms: [String] = []
    public var antonyms: [String] = []
    public var seeAlso: [String] = []
    /// Which meaning of `term` an entry defines, when the glossary holds several (`crane` / `machine`).
    public var sense: String?
    /// An entry's card text in markdown, instead of its first paragraph.
    public var summary: String?
    /// Whether auto-linking matches an entry's term and aliases only as spelled (acronyms: `API`, `Go`).
    public var caseSensitive: Bool = false
    /// The standing of an entry's `term:` (`status:`); nil is as `preferred`.
    public var status: TermStatus?
    /// The term to write instead of a deprecated or forbidden `term:` (`use:`).
    public var use: String?
    /// Names that stand for the entry's term but that pages should not write (`deprecated:`, `forbidden:`); they are
    /// among `aliases` too, so a reference by one still links the entry.
    public var deprecated: [String] = []
    public var forbidden: [String] = []

    /// A page's pick among a word's senses, by the word as written (`crane: machine`).
    public var senses: [String: String] = [:]
    /// A page's own auto-linking mode, over the site's.
    public var autolink: AutolinkMode?
    /// Terms a page never auto-links.
    public var autolinkExclude: [String] = []

    /// The content path (below `content/`) of the page this one translates, when their paths differ
    /// (`translation_of: guide/intro.md` in `content/fr/guide/introduction.md`).
    public var translationOf: String?
    /// The concept a team entry names (`concept: ID`): entries with one concept in different languages are one
    /// concept's terms in those languages.
    public var concept: String?

    /// Where each key's value starts, by YAML key as written (`term`, `see_also`); list items
    /// also by index (`see_also[0]`), so later stages can point at one unresolved entry.
    public var locations: [String: SourceLocation] = [:]

    public init() {}

    static let keys = [
        "title", "description", "date", "draft", "tags", "terms", "weight", "toc",
        "term", "aliases", "part_of_speech", "phonetic", "synonyms", "antonyms", "see_also",
        "sense", "summary", "case_sensitive", "senses", "autolink", "autolink_exclude", "status", "use", "deprecated", "forbidden",
        "translation_of", "concept",
    ]

    /// Reads parsed front matter; nil (no or empty front matter) gives the defaults.
    ///
    /// Locations come from the nodes, which already carry the file; `file` is accepted so callers
    /// need not know that.
    ///
    /// Diagnostics: `front-matter-type` when the top level is not a mapping, `unknown-key` and
    /// `duplicate-key` warnings, `config-type` errors. A value with a problem keeps its default.
    public static func decode(_ node: YAMLNode?, file: String) -> (PageMetadata, [Diagnostic]) {
        var metadata = PageMetadata()
        guard let node else { return (metadata, []) }
        guard let pairs = node.pairs else {
            return (metadata, [Diagnostic(.frontMatterType(found: node.foundDescription), at: node.location)])
        }
        var fields = KeyedMapping(pairs, known: keys, context: "in front matter")
        metadata.title = fields.string("title")
        metadata.description = fields.string("description")
        metadata.date = fields.date("date")
        metadata.draft = fields.bool("draft") ?? false
        metadata.tags = fields.stringList("tags") ?? []
        metadata.terms = fields.stringList("terms") ?? []
        metadata.weight = fields.int("weight")
        metadata.toc = fields.bool("toc")
        metadata.term = fields.string("term")
        metadata.aliases = fields.stringList("aliases") ?? []
        metadata.partOfSpeech = fields.string("part_of_speech")
        metadata.phonetic = fields.string("phonetic")
        metadata.synonyms = fields.stringList("synonyms") ?? []
        metadata.antonyms = fields.stringList("antonyms") ?? []
        metadata.seeAlso = fields.stringList("see_also") ?? []
        metadata.sense = fields.string("sense")
        metadata.summary = fields.string("summary")
        metadata.translationOf = fields.string("translation_of")
        metadata.concept = fields.string("concept")
        metadata.caseSensitive = fields.bool("case_sensitive") ?? false
        if let status = fields.string("status"), let node = fields["status"] {
            metadata.status = TermStatus(rawValue: status)
            if metadata.status == nil {
                fields.report(node.valueError("status", "must be one of " + TermStatus.allCases.map(\.rawValue).joined(separator: ", ")))
            }
        }
        metadata.use = fields.string("use")
        metadata.deprecated = fields.stringList("deprecated") ?? []
        metadata.forbidden = fields.stringList("forbidden") ?? []
        metadata.aliases += metadata.deprecated + metadata.forbidden
        metadata.senses = Dictionary((fields.stringMapping("senses") ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        metadata.autolink = fields.autolinkMode("autolink")
        metadata.autolinkExclude = fields.stringList("autolink_exclude") ?? []

        for (key, value) in fields.present {
            metadata.locations[key] = value.location
            for (index, item) in (value.items ?? []).enumerated() {
                metadata.locations["\(key)[\(index)]"] = item.location
            }
        }
        return (metadata, fields.diagnostics.inDocumentOrder())
    }

    /// Splits a page, parses its front matter and decodes it; never fails.
    ///
    /// On an unclosed front matter the whole page (minus a BOM) is returned as the body from line
    /// 1, so later stages can still report what they find; the error is among the diagnostics.
    public static func parse(
        source: String, file: String
    ) -> (metadata: PageMetadata, body: String, bodyFirstLine: Int, diagnostics: [Diagnostic]) {
        let split: FrontMatterSplit
        do {
            split = try FrontMatter.split(source, file: file)
        } catch {
            return (PageMetadata(), String(source.trimmingPrefix("\u{FEFF}")), 1, [error])
        }
        guard let yaml = split.yaml else {
            return (PageMetadata(), split.body, split.bodyFirstLine, [])
        }
        do {
            let node = try YAMLNode.parse(yaml, file: file, lineOffset: split.yamlFirstLine - 1)
            let (metadata, diagnostics) = decode(node, file: file)
            return (metadata, split.body, split.bodyFirstLine, diagnostics)
        } catch {
            return (PageMetadata(), split.body, split.bodyFirstLine, [error])
        }
    }
}
