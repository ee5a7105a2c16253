import CXML2
import Foundation

/// Reads a TBX file (TBX-Basic and TBX-Core in the DCA style, TBX-Min's element names too) with libxml2 into
/// entries: one a `langSec` in one of the site's languages, its `conceptEntry`'s id its `concept:`. The only file that
/// touches libxml2.
///
/// Mapped: `langSec`'s `termSec`s (the first preferred name, else the first, is the term; other preferred and
/// admitted names are aliases, deprecated and superseded ones `deprecated:`, forbidden ones `forbidden:`; a name
/// with `termType` `variant` is a form pages wrote, which a site finds by itself), `partOfSpeech`,
/// `administrativeStatus`, a deprecated term's `crossReference` (its `use:`), `definition` (in a `descripGrp` or
/// not, on the concept or the language), `note`, `source`, and the export's own `externalCrossReference`
/// (the term page's address, made again by the site). Every other element is reported, at its line and column.
enum TBXReader {
    struct Reading {
        var entries: [ImportedEntry] = []
        var diagnostics: [Diagnostic] = []
    }

    static func read(_ data: Data, file: String, languages: SiteLanguages) -> Reading {
        var reading = Reading()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = data.withUnsafeBytes { buffer in
            xmlReadMemory(buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), file, nil, options)
        }
        guard let document else {
            let error = xmlGetLastError()
            let message = error?.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "not XML"
            let location = SourceLocation(file: file, line: max(1, Int(error?.pointee.line ?? 1)), column: max(1, Int(error?.pointee.int2 ?? 1)))
            reading.diagnostics.append(Diagnostic(.importSyntax(detail: "not well-formed XML: " + message), at: location))
            return reading
        }
        defer { xmlFreeDoc(document) }
        var walker = Walker(file: file, lines: lines, languages: languages)
        if let root = xmlDocGetRootElement(document) { walker.root(root) }
        reading.entries = walker.entries
        reading.diagnostics = walker.diagnostics
        return reading
    }

    private struct Walker {
        let file: String
        let lines: [String]
        let languages: SiteLanguages
        var entries: [ImportedEntry] = []
        var diagnostics: [Diagnostic] = []

        init(file: String, lines: [String], languages: SiteLanguages) {
            self.file = file
            self.lines = lines
            self.languages = languages
        }

        /// A name of a `termSec`, with what it says of itself.
        struct Name {
            var text: String
            var status: TermStatus?
            var partOfSpeech: String?
            var variant = false
            var crossReference: String?
        }

        /// What a concept or a language section says of its definition, notes and sources.
        struct Description {
            var definitions: [String] = []
            var notes: [String] = []
            var sources: [String] = []
        }

        mutating func root(_ root: xmlNodePtr) {
            guard ["tbx", "TBX"].contains(name(root)) else {
                unmapped(root)
                return
            }
            for child in children(root) {
                switch name(child) {
                case "tbxHeader", "header": continue
                case "text":
                    for body in children(child) {
                        guard name(body) == "body" else {
                            unmapped(body)
                            continue
                        }
                        for concept in children(body) { conceptEntry(concept) }
                    }
                case "body": for concept in children(child) { conceptEntry(concept) }
                default: unmapped(child)
                }
            }
        }

        mutating func conceptEntry(_ node: xmlNodePtr) {
            guard ["conceptEntry", "entry"].contains(name(node)) else {
                unmapped(node)
                return
            }
            var shared = Description()
            var sections: [xmlNodePtr] = []
            for child in children(node) {
                switch name(child) {
                case "langSec", "langGroup": sections.append(child)
                case "xref" where attribute(child, "type") == "externalCrossReference": continue
                default: if !describe(child, into: &shared) { unmapped(child) }
                }
            }
            for section in sections { langSec(section, concept: attribute(node, "id"), shared: shared) }
        }

        /// Reads a definition, note or source (or a group of them) into `description`; false for anything else.
        mutating func describe(_ node: xmlNodePtr, into description: inout Description) -> Bool {
            switch (name(node), attribute(node, "type")) {
            case ("descrip", "definition"), ("definition", _), ("description", _): description.definitions.append(text(node, keepingLines: true))
            case ("note", _): description.notes.append(text(node))
            case ("admin", "source"), ("source", _): description.sources.append(text(node))
            case ("descripGrp", _):
                for child in children(node) where !describe(child, into: &description) { unmapped(child) }
            default: return false
            }
            return true
        }

        mutating func langSec(_ node: xmlNodePtr, concept: String?, shared: Description) {
            let lang = attribute(node, "xml:lang") ?? attribute(node, "lang") ?? languages.defaultLanguage
            guard let language = ImportLanguage.code(lang, in: languages) else {
                diagnostics.append(Diagnostic(ImportLanguage.unmapped("a language section", lang, site: languages), at: location(node)))
                return
            }
            var description = shared
            var names: [Name] = []
            for child in children(node) {
                if ["termSec", "termGroup"].contains(name(child)) {
                    if let read = termSec(child) { names.append(read) }
                } else if !describe(child, into: &description) {
                    unmapped(child)
                }
            }
            let written = names.filter { !$0.variant }
            guard let term = written.first(where: { $0.status == .preferred }) ?? written.first(where: { $0.status?.isDiscouraged != true }) ?? written.first
            else {
                diagnostics.append(Diagnostic(.importUnmapped(what: "a language section with no term"), at: location(node)))
                return
            }
            var entry = ImportedEntry(term: term.text, language: language, location: location(node))
            entry.concept = concept
            if let status = term.status, status != .preferred { entry.status = status }
            entry.use = term.crossReference
            entry.partOfSpeech = term.partOfSpeech ?? written.lazy.compactMap(\.partOfSpeech).first
            var seen: Set<TermKey> = TermKey(term.text).map { [$0] } ?? []
            for other in written {
                guard let key = TermKey(other.text), seen.insert(key).inserted else { continue }
                switch other.status {
                case .deprecated: entry.deprecated.append(other.text)
                case .forbidden: entry.forbidden.append(other.text)
                default: entry.aliases.append(other.text)
                }
            }
            entry.definition = description.definitions.joined(separator: "\n")
            entry.notes = description.notes
            entry.sources = description.sources
            entries.append(entry)
        }

        mutating func termSec(_ node: xmlNodePtr) -> Name? {
            var read = Name(text: "")
            for child in children(node) {
                switch (name(child), attribute(child, "type")) {
                case ("term", _): read.text = text(child)
                case ("termNote", "partOfSpeech"), ("partOfSpeech", _): read.partOfSpeech = text(child)
                case ("termNote", "administrativeStatus"), ("termStatus", _):
                    read.status = TermStatus(tbxValue: text(child))
                    if read.status == nil, text(child) == "supersededTerm-admn-sts" { read.status = .deprecated }
                    if read.status == nil { unmapped(child) }
                case ("termNote", "termType"):
                    if text(child) == "variant" { read.variant = true } else { unmapped(child) }
                case ("ref", "crossReference"): read.crossReference = text(child)
                default: unmapped(child)
                }
            }
            guard !read.text.isEmpty else {
                diagnostics.append(Diagnostic(.importUnmapped(what: "a term section with no term"), at: location(node)))
                return nil
            }
            return read
        }

        mutating func unmapped(_ node: xmlNodePtr) {
            let type = attribute(node, "type").map { " type=\"\($0)\"" } ?? ""
            diagnostics.append(Diagnostic(.importUnmapped(what: "<\(name(node))\(type)>"), at: location(node)))
        }

        /// The element's line (libxml2's) and column: where its tag starts on that line, found in the source.
        func location(_ node: xmlNodePtr) -> SourceLocation {
            let line = max(1, xmlGetLineNo(node))
            var column = 1
            if line <= lines.count, let range = lines[line - 1].range(of: "<" + name(node)) {
                column = lines[line - 1][..<range.lowerBound].unicodeScalars.count + 1
            }
            return SourceLocation(file: file, line: line, column: column)
        }

        func name(_ node: xmlNodePtr) -> String { node.pointee.name.map { String(cString: $0) } ?? "" }

        /// The element children of `node`, in order.
        func children(_ node: xmlNodePtr) -> [xmlNodePtr] {
            var found: [xmlNodePtr] = []
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_ELEMENT_NODE { found.append(current) }
                child = current.pointee.next
            }
            return found
        }

        /// The text inside `node`, its white space collapsed; with `keepingLines`, each line apart (a definition: a line
        /// a paragraph, as the export writes them and a CSV cell holds them), blank lines left out.
        func text(_ node: xmlNodePtr, keepingLines: Bool = false) -> String {
            guard let content = xmlNodeGetContent(node) else { return "" }
            defer { glossary_xml_free(content) }
            let text = String(cString: content)
            func collapsed(_ line: Substring) -> String { line.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            guard keepingLines else { return collapsed(text[...]) }
            return text.split(whereSeparator: \.isNewline).map(collapsed).filter { !$0.isEmpty }.joined(separator: "\n")
        }

        func attribute(_ node: xmlNodePtr, _ attribute: String) -> String? {
            let value: UnsafeMutablePointer<xmlChar>?
            if attribute == "xml:lang" {
                value = xmlGetNsProp(node, "lang", "http://www.w3.org/XML/1998/namespace")
            } else {
                value = xmlGetProp(node, attribute)
            }
            guard let value else { return nil }
            defer { glossary_xml_free(value) }
            return String(cString: value)
        }
    }
}
