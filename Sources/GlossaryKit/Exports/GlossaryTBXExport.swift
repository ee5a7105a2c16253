import Foundation

/// `glossary.tbx`: the glossary for translation tools, in TBX-Basic (ISO 30042:2019, DCA style).
///
/// One `conceptEntry` per concept: the terms whose entries share a `concept:` (its id the concept), each other term
/// alone (its id `term-SLUG`). In it, a `langSec` per term, in its entry's language (the site's order), holding the
/// definition as text with its sources, the entry's notes, and a `termSec` per name: the term itself
/// (`preferredTerm-admn-sts` unless its entry says otherwise), each alias (`admittedTerm-admn-sts`, or deprecated,
/// forbidden), and each form pages wrote that is not one of those (`variant`). Each `termSec` carries the part of
/// speech in TBX-Basic's picklist (`noun`, `verb`, `adjective`, `adverb`, else `other`). With the site's address
/// known, each concept links its terms' pages (`externalCrossReference`).
enum GlossaryTBXExport {
    static let namespace = "urn:iso:std:iso:30042:ed:3.0"

    static func text(_ export: GlossaryExport) -> String {
        String(decoding: data(export), as: UTF8.self)
    }

    /// `text(_:)` as UTF-8 bytes, made a concept at a time into one block.
    static func data(_ export: GlossaryExport) -> Data {
        var bytes = GrowingBytes()
        write(export, into: &bytes)
        return bytes.data()
    }

    /// The file appended to `out` a concept at a time, so that written to a `StreamedFile` it is never whole in memory.
    /// `placed` is told where the concept entry of each term that is a concept alone went (the term's index, and the
    /// entry's first and end byte offsets).
    static func write<Output: TextOutput & ~Copyable>(
        _ export: GlossaryExport, into out: inout Output, placed: (Int, Int, Int) -> Void = { _, _, _ in }
    ) {
        let language = XMLText.escaped(export.language, attribute: true)
        out.append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <tbx type="TBX-Basic" style="dca" xml:lang="\(language)" xmlns="\(namespace)">
            <tbxHeader>
            <fileDesc>
            <titleStmt><title>\(XMLText.escaped(export.title))</title></titleStmt>
            <sourceDesc><p>The glossary of \(XMLText.escaped(export.title)) (\(XMLText.escaped(export.root))), exported by glossary.</p></sourceDesc>
            </fileDesc>
            </tbxHeader>
            <text>
            <body>

            """)
        let concepts = concepts(export)
        var ids: [String: String] = [:]
        for concept in concepts { for index in concept.terms { ids[place(export.terms[index], export)] = concept.id } }
        for concept in concepts {
            let start = out.byteCount
            out.append(
                conceptEntry(id: concept.id, terms: concept.terms.map { export.terms[$0] }, language: export.language, linked: export.isAbsolute, ids: ids))
            if concept.terms.count == 1 { placed(concept.terms[0], start, out.byteCount) }
        }
        out.append("</body>\n</text>\n</tbx>\n")
    }

    /// The terms by concept, in the order of each concept's first term; a concept's terms in the order of their
    /// languages in `export.languages`, then as they come.
    static func concepts(_ export: GlossaryExport) -> [(id: String, terms: [Int])] {
        var order: [String] = []
        var members: [String: [Int]] = [:]
        for (index, term) in export.terms.enumerated() {
            // A term of another language than the default may share its slug with one of the default's.
            let language = term.language.flatMap { $0 == export.language ? nil : $0 + "-" } ?? ""
            let id = term.concept.map(conceptID) ?? "term-" + language + term.slug
            if members[id] == nil { order.append(id) }
            members[id, default: []].append(index)
        }
        func rank(_ index: Int) -> Int { export.languages.firstIndex(of: export.terms[index].language ?? export.language) ?? export.languages.count }
        return order.map { id in
            (id, members[id, default: []].enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element))
        }
    }

    /// A term's language and slug: what names its page, whatever the language.
    static func place(_ term: GlossaryExport.Term, _ export: GlossaryExport) -> String { (term.language ?? export.language) + " " + term.slug }

    /// A concept as an `xsd:ID`: as written when it is one, else with what an ID can't hold made `_` (and `c-` before a
    /// start it can't have).
    static func conceptID(_ concept: String) -> String {
        func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "-._".unicodeScalars.contains(scalar)
        }
        var id = String(String.UnicodeScalarView(concept.unicodeScalars.map { isNameScalar($0) ? $0 : "_" }))
        if id.unicodeScalars.first.map({ !$0.properties.isAlphabetic && $0 != "_" }) ?? true { id = "c-" + id }
        return id
    }

    /// One `conceptEntry`: its terms' page links, then a `langSec` per term. `ids` gives each term's concept, by its
    /// `place`, for the cross reference to a term's replacement (its language's).
    static func conceptEntry(id: String, terms: [GlossaryExport.Term], language: String, linked: Bool, ids: [String: String]) -> String {
        var xml = "<conceptEntry id=\"\(XMLText.escaped(id, attribute: true))\">\n"
        if linked {
            for term in terms {
                xml += "<xref type=\"externalCrossReference\" target=\"\(XMLText.escaped(term.url, attribute: true))\">\(XMLText.escaped(term.word))</xref>\n"
            }
        }
        for term in terms { xml += langSec(term, language: language, ids: ids) }
        return xml + "</conceptEntry>\n"
    }

    static func langSec(_ term: GlossaryExport.Term, language: String, ids: [String: String]) -> String {
        var xml = "<langSec xml:lang=\"\(XMLText.escaped(term.language ?? language, attribute: true))\">\n"
        let (definition, notes, sources) = term.definitionParts
        let sourceLines = (term.source.urls + sources).map { "<admin type=\"source\">\(XMLText.escaped($0))</admin>\n" }.joined()
        if !definition.isEmpty {
            xml += "<descripGrp>\n<descrip type=\"definition\">\(XMLText.escaped(definition))</descrip>\n" + sourceLines + "</descripGrp>\n"
        } else {
            xml += sourceLines
        }
        for note in notes { xml += "<note>\(XMLText.escaped(note))</note>\n" }
        let partOfSpeech = term.partOfSpeech.map(Self.partOfSpeech)
        for (index, (name, status, variant)) in names(term).enumerated() {
            xml += "<termSec>\n<term>\(XMLText.escaped(name))</term>\n"
            if let partOfSpeech { xml += "<termNote type=\"partOfSpeech\">\(partOfSpeech)</termNote>\n" }
            xml += "<termNote type=\"administrativeStatus\">\(status)</termNote>\n"
            if variant { xml += "<termNote type=\"termType\">variant</termNote>\n" }
            // The word's replacement, by TBX-Basic's cross reference to its concept.
            if index == 0, let use = term.use, let target = term.useSlug.flatMap({ ids[(term.language ?? language) + " " + $0] }) {
                xml += "<ref type=\"crossReference\" target=\"\(XMLText.escaped(target, attribute: true))\">\(XMLText.escaped(use))</ref>\n"
            }
            xml += "</termSec>\n"
        }
        return xml + "</langSec>\n"
    }

    /// The term, its aliases, then the other forms pages wrote, each name once (by key), with its status: the
    /// entry's (`status:`, `deprecated:`, `forbidden:`), else preferred for the word and admitted for the others.
    static func names(_ term: GlossaryExport.Term) -> [(name: String, status: String, variant: Bool)] {
        var seen = Set<TermKey>()
        var names: [(String, String, Bool)] = []
        func add(_ name: String, _ status: TermStatus, variant: Bool) {
            guard let key = TermKey(name), seen.insert(key).inserted else { return }
            let given = term.statuses[key.rawValue].flatMap(TermStatus.init(rawValue:)) ?? status
            names.append((name, given.tbxValue, variant))
        }
        add(term.word, .preferred, variant: false)
        for alias in term.aliases { add(alias, .admitted, variant: false) }
        for form in term.forms { add(form, .admitted, variant: true) }
        return names
    }

    /// TBX-Basic's part-of-speech picklist value for the glossary's free text.
    static func partOfSpeech(_ text: String) -> String {
        // Most entries write a value of the list as it is.
        if ["noun", "verb", "adjective", "adverb"].contains(text) { return text }
        return switch text.lowercased().trimmingCharacters(in: .whitespaces) {
        case "noun": "noun"
        case "verb": "verb"
        case "adjective": "adjective"
        case "adverb": "adverb"
        default: "other"
        }
    }
}
