import Foundation

/// `glossary.tbx`: the glossary for translation tools, in TBX-Basic (ISO 30042:2019, DCA style).
///
/// One `conceptEntry` per term (its id `term-SLUG`), with one English (the site's language) `langSec` holding the
/// definition as text and a `termSec` per name: the term itself (`preferredTerm-admn-sts`), each alias
/// (`admittedTerm-admn-sts`), and each form pages wrote that is not one of those (`variant`). Each `termSec`
/// carries the part of speech in TBX-Basic's picklist (`noun`, `verb`, `adjective`, `adverb`, else `other`).
/// With the site's address known, each entry links its term page (`externalCrossReference`).
enum GlossaryTBXExport {
    static let namespace = "urn:iso:std:iso:30042:ed:3.0"

    static func text(_ export: GlossaryExport) -> String {
        String(decoding: data(export), as: UTF8.self)
    }

    /// `text(_:)` as UTF-8 bytes, made an entry at a time into one block.
    static func data(_ export: GlossaryExport) -> Data {
        let language = XMLText.escaped(export.language, attribute: true)
        var bytes = GrowingBytes()
        bytes.append(
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
        for term in export.terms {
            bytes.append(conceptEntry(term, language: language, linked: export.isAbsolute))
        }
        bytes.append("</body>\n</text>\n</tbx>\n")
        return bytes.data()
    }

    static func conceptEntry(_ term: GlossaryExport.Term, language: String, linked: Bool) -> String {
        var xml = "<conceptEntry id=\"term-\(XMLText.escaped(term.slug, attribute: true))\">\n"
        if linked {
            xml += "<xref type=\"externalCrossReference\" target=\"\(XMLText.escaped(term.url, attribute: true))\">\(XMLText.escaped(term.word))</xref>\n"
        }
        xml += "<langSec xml:lang=\"\(language)\">\n"
        if !term.definitionText.isEmpty {
            xml += "<descripGrp>\n<descrip type=\"definition\">\(XMLText.escaped(term.definitionText))</descrip>\n"
            for url in term.source.urls { xml += "<admin type=\"source\">\(XMLText.escaped(url))</admin>\n" }
            xml += "</descripGrp>\n"
        }
        let partOfSpeech = term.partOfSpeech.map(Self.partOfSpeech)
        for (index, (name, status, variant)) in names(term).enumerated() {
            xml += "<termSec>\n<term>\(XMLText.escaped(name))</term>\n"
            if let partOfSpeech { xml += "<termNote type=\"partOfSpeech\">\(partOfSpeech)</termNote>\n" }
            xml += "<termNote type=\"administrativeStatus\">\(status)</termNote>\n"
            if variant { xml += "<termNote type=\"termType\">variant</termNote>\n" }
            // The word's replacement, by TBX-Basic's cross reference to its concept.
            if index == 0, let use = term.use, let slug = term.useSlug {
                xml += "<ref type=\"crossReference\" target=\"term-\(XMLText.escaped(slug, attribute: true))\">\(XMLText.escaped(use))</ref>\n"
            }
            xml += "</termSec>\n"
        }
        return xml + "</langSec>\n</conceptEntry>\n"
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
        switch text.lowercased().trimmingCharacters(in: .whitespaces) {
        case "noun": "noun"
        case "verb": "verb"
        case "adjective": "adjective"
        case "adverb": "adverb"
        default: "other"
        }
    }
}
