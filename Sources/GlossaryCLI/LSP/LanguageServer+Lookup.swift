import Foundation
import GlossaryKit

/// What a position in a document points at: a `[[reference]]`, an auto-linked word, a glossary entry's `term:`.
extension LanguageServer {
    /// A term named at a position: the bytes naming it, the word as written there and its key.
    struct Named {
        var range: Range<Int>
        var word: String
        var key: TermKey
        /// The byte range of the word after `|` (or the whole reference's inside), for edits.
        var wordRange: Range<Int>
        var isExplicit: Bool
    }

    /// The open document at `params.textDocument` and the position `params.position`.
    func documentPosition(_ params: JSONValue) throws(JSONRPC.Failure) -> (path: String, document: TextDocument, offset: Int) {
        guard let uri = params["textDocument"]?["uri"]?.stringValue, let path = Self.path(uri) else {
            throw .invalidParams("textDocument.uri must be a file URI")
        }
        let document = try openDocument(path, uri: uri)
        guard let (line, character) = Self.position(params["position"]) else { throw .invalidParams("position must have a line and a character") }
        return (path, document, document.offset(line: line, character: character))
    }

    /// The open document at `path`, or the file as it is on disk.
    func openDocument(_ path: String, uri: String? = nil) throws(JSONRPC.Failure) -> TextDocument {
        if let document = documents[path] { return document }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw .invalidParams("No such document: \(path)") }
        return TextDocument(uri: uri ?? Self.uri(path), version: 0, text: text)
    }

    /// The `[[…]]` around `offset` on its line.
    static func explicitReference(in document: TextDocument, at offset: Int) -> Named? {
        let line = document.position(ofOffset: offset).line
        let bytes = document.line(line)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "["), bytes[index + 1] == UInt8(ascii: "["), index == bytes.startIndex || bytes[index - 1] != UInt8(ascii: "\\")
            else {
                index += 1
                continue
            }
            var end = index + 2
            while end + 1 < bytes.endIndex && !(bytes[end] == UInt8(ascii: "]") && bytes[end + 1] == UInt8(ascii: "]")) { end += 1 }
            guard end + 1 < bytes.endIndex else { return nil }
            if index <= offset && offset <= end + 2 {
                let inner = (index + 2)..<end
                let bar = bytes[inner].lastIndex(of: UInt8(ascii: "|"))
                let wordRange = bar.map { ($0 + 1)..<end } ?? inner
                let word = document.text(wordRange).trimmingCharacters(in: .whitespaces)
                guard let key = TermKey(word) else { return nil }
                return Named(range: index..<(end + 2), word: word, key: key, wordRange: wordRange, isExplicit: true)
            }
            index = end + 2
        }
        return nil
    }

    /// The reference at `offset`: a written one, else an automatic one (found by reading the document as a build
    /// would), else the `term:` of a glossary entry.
    func reference(at offset: Int, in document: TextDocument, path: String, live: LiveSite) -> Named? {
        // A page's terms are its language's.
        let contentFolder = live.root.path + "/content/"
        let contentPath = path.hasPrefix(contentFolder) ? String(path.dropFirst(contentFolder.count)) : path
        let language = (live.site?.config ?? SiteConfig()).siteLanguages.keyLanguage(ofContentPath: contentPath)
        if var named = Self.explicitReference(in: document, at: offset) {
            named.key = named.key.inLanguage(language)
            return named
        }
        guard let record = record(of: document, path: path, live: live) else { return nil }
        for reference in record.references where reference.isAutomatic {
            let start = document.offset(ofSourceLine: reference.location.line, column: reference.location.column)
            let range = start..<(start + reference.shown.utf8.count)
            if range.contains(offset) { return Named(range: range, word: reference.shown, key: reference.key, wordRange: range, isExplicit: false) }
        }
        if record.page.kind == .glossaryEntry, let word = record.page.metadata.term, let location = record.page.metadata.locations["term"] {
            let start = document.offset(ofSourceLine: location.line, column: location.column)
            let line = document.line(location.line - 1)
            var end = line.endIndex
            while end > start && Self.isSpace(line[end - 1]) { end -= 1 }
            if (start...end).contains(offset), let key = record.page.metadata.sense.map({ TermKey.sense(word: word, sense: $0) }) ?? TermKey(word) {
                return Named(range: start..<end, word: word, key: key.inLanguage(language), wordRange: start..<end, isExplicit: false)
            }
        }
        return nil
    }

    /// Documents larger than this are read only by their checks, never while a request waits.
    static let readLimit = 1 << 20

    /// How `document` reads as a page of `live`: its last check's record when that was of this version, else read
    /// now (only when small; else the last check's, or the file on disk's).
    func record(of document: TextDocument, path: String, live: LiveSite) -> PageRecord? {
        let contentFolder = live.root.path + "/content/"
        guard path.hasPrefix(contentFolder), path.hasSuffix(".md") else { return nil }
        let contentPath = String(path.dropFirst(contentFolder.count))
        if let kept = records[path], kept.version == document.version || document.bytes.count > Self.readLimit { return kept.record }
        if document.bytes.count > Self.readLimit { return live.record(contentPath: contentPath) }
        return live.parse(text: document.text, contentPath: contentPath).record
    }

    /// The plain word around `offset` (letters, digits, `-`, `'`, and any non-ASCII text).
    static func word(in document: TextDocument, at offset: Int) -> Range<Int>? {
        let line = document.line(document.position(ofOffset: offset).line)
        func isWordByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 45 || byte == 39
        }
        var start = min(offset, line.endIndex)
        while start > line.startIndex && isWordByte(line[start - 1]) { start -= 1 }
        var end = max(offset, line.startIndex)
        while end < line.endIndex && isWordByte(line[end]) { end += 1 }
        return start < end ? start..<end : nil
    }

    /// Where a glossary entry's `term:` is, in the file as open or on disk.
    func termLocation(_ definition: TermDefinition, live: LiveSite) -> (path: String, range: JSONValue)? {
        guard case .team(let index) = definition.origin, let site = live.site, site.pages.indices.contains(index) else { return nil }
        let record = site.pages[index]
        let path = live.root.path + "/" + record.page.displayPath
        guard let document = try? openDocument(path) else { return nil }
        let location = record.page.metadata.locations["term"] ?? .start(of: record.page.displayPath)
        let start = document.offset(ofSourceLine: location.line, column: location.column)
        let line = document.line(location.line - 1)
        var end = line.endIndex
        while end > start && Self.isSpace(line[end - 1]) { end -= 1 }
        return (path, Self.lspRange(document, start..<end))
    }

    static func location(_ path: String, _ range: JSONValue) -> JSONValue {
        .object([("uri", .string(uri(path))), ("range", range)])
    }
}
