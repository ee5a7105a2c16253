import Foundation
import GlossaryKit

/// Completion, hover, go to definition, references and symbols.
extension LanguageServer {
    func completion(_ params: JSONValue) async throws(JSONRPC.Failure) -> JSONValue {
        let (path, document, offset) = try documentPosition(params)
        guard let live = await liveSite(for: path) else { return .array([]) }
        let lineNumber = document.position(ofOffset: offset).line
        let line = document.line(lineNumber)
        let before = String(decoding: line[line.startIndex..<offset], as: UTF8.self)
        guard let open = before.range(of: "[[", options: .backwards), !Self.isCode(document, line: lineNumber, before: before[..<open.lowerBound])
        else { return .array([]) }
        let inner = before[open.upperBound...]
        guard !inner.contains("]]") else { return .array([]) }
        let typed = inner.lastIndex(of: "|").map { inner[inner.index(after: $0)...] } ?? inner
        let range = Self.lspRange(document, (offset - typed.utf8.count)..<offset)
        // Closed already (`[[|]]`, `[[|keybord]]`): only the word goes in.
        let after = String(decoding: line[offset..<line.endIndex], as: UTF8.self)
        let close = after.range(of: "]]")
        let closing = close.map { close in after.range(of: "[[").map { $0.lowerBound < close.lowerBound } ?? false } ?? true ? "]]" : ""
        var candidates = completionItems[live.root.path] ?? CompletionCandidate.all(in: live).map { ($0, $0.members(markdown: markdownCompletions)) }
        completionItems[live.root.path] = candidates
        // A page's terms are its language's.
        let contentFolder = live.root.path + "/content/"
        let contentPath = path.hasPrefix(contentFolder) ? String(path.dropFirst(contentFolder.count)) : path
        let language = live.site?.config.siteLanguages.keyLanguage(ofContentPath: contentPath) ?? ""
        candidates = candidates.filter { $0.candidate.language == language }
        if let paren = typed.range(of: " (") {
            let wordKey = TermKey(String(typed[..<paren.lowerBound]))
            candidates = candidates.filter { $0.candidate.hasSense && $0.candidate.wordKey == wordKey }
        } else if !typed.isEmpty {
            let prefix = typed.lowercased()
            candidates = candidates.filter { $0.candidate.label.lowercased().hasPrefix(prefix) }
        }
        guard completionEditRangeDefault else {
            let items = candidates.map { CompletionCandidate.item($0.members, label: $0.candidate.label, replacing: range, closing: closing) }
            return .object([("isIncomplete", .bool(true)), ("items", .array(items))])
        }
        return .object([
            ("isIncomplete", .bool(true)), ("itemDefaults", .object([("editRange", range)])),
            ("items", .array(candidates.map { CompletionCandidate.item($0.members, label: $0.candidate.label, closing: closing) })),
        ])
    }

    func hover(_ params: JSONValue) async throws(JSONRPC.Failure) -> JSONValue {
        let (path, document, offset) = try documentPosition(params)
        guard let live = await liveSite(for: path), let named = reference(at: offset, in: document, path: path, live: live),
            let definition = await live.definition(for: named.key)
        else { return .null }
        let value = Self.card(definition, for: named, live: live, markdown: markdownHovers)
        let contents: JSONValue = .object([("kind", .string(markdownHovers ? "markdown" : "plaintext")), ("value", .string(value))])
        return .object([("contents", contents), ("range", Self.lspRange(document, named.range))])
    }

    /// A definition as its card shows it: word, phonetic, part of speech, summary, source and licence; for a form or
    /// an alias, the term it belongs to.
    /// In markdown, or in plain text for a client that shows no markdown.
    static func card(_ definition: TermDefinition, for named: Named, live: LiveSite, markdown: Bool) -> String {
        func strong(_ text: String) -> String { markdown ? "**\(text)**" : text }
        func emphasis(_ text: String) -> String { markdown ? "*\(text)*" : text }
        func code(_ text: String) -> String { markdown ? "`\(text)`" : text }
        var head = strong(definition.title)
        if let phonetic = definition.phonetic { head += " \(phonetic)" }
        if let partOfSpeech = definition.partOfSpeech { head += markdown ? " *\(partOfSpeech)*" : " (\(partOfSpeech))" }
        var parts = [head]
        if named.key != definition.key {
            let relation = definition.aliases.contains(named.key) ? "an alias of" : "a form of"
            parts.append("\(emphasis(named.word)) is \(relation) \(strong(definition.title)).")
        }
        if let summary = definition.summary, !summary.isEmpty { parts.append(summary) }
        let licences = definition.entries.compactMap(\.license).map(\.name).uniquedNames()
        switch definition.origin {
        case .team(let index):
            let file = live.site.map { $0.pages[index].page.displayPath } ?? ""
            parts.append("Source: the team's glossary, \(code(file)).")
        case .dictionary:
            parts.append(
                "Source: the Free Dictionary API (cached)"
                    + (licences.isEmpty ? ", licence not stated." : ", licensed under \(licences.joined(separator: ", ")).")
                    + (definition.entries.flatMap(\.sourceUrls).first.map { " From \($0)." } ?? ""))
        case .wordNet:
            parts.append(
                "Source: WordNet 3.0, Princeton University" + (licences.isEmpty ? "." : ", used under the \(licences.joined(separator: ", ")) licence."))
        }
        return parts.joined(separator: "\n\n")
    }

    func definition(_ params: JSONValue) async throws(JSONRPC.Failure) -> JSONValue {
        let (path, document, offset) = try documentPosition(params)
        guard let live = await liveSite(for: path), let named = reference(at: offset, in: document, path: path, live: live),
            let definition = await live.definition(for: named.key)
        else { return .null }
        switch definition.origin {
        case .team:
            guard let (file, range) = termLocation(definition, live: live) else { return .null }
            return Self.location(file, range)
        case .dictionary:
            guard let file = live.cacheFile(for: definition.key) else { return .null }
            let start = Self.lspPosition((0, 0))
            return Self.location(file.path, .object([("start", start), ("end", start)]))
        case .wordNet:
            return .null
        }
    }

    /// The published records of a site with the open documents' unsaved text in place of their files'.
    func currentRecords(_ live: LiveSite) -> [(path: String, record: PageRecord)] {
        guard let site = live.site else { return [] }
        let contentFolder = live.root.path + "/content/"
        var records = site.pages.map { (live.root.path + "/" + $0.page.displayPath, $0) }
        var index: [String: Int] = [:]
        for (position, entry) in records.enumerated() { index[entry.0] = position }
        for (path, document) in documents where path.hasPrefix(contentFolder) && path.hasSuffix(".md") {
            guard let record = record(of: document, path: path, live: live), record.hasBody else { continue }
            if let position = index[path] { records[position] = (path, record) } else { records.append((path, record)) }
        }
        return records
    }

    func references(_ params: JSONValue) async throws(JSONRPC.Failure) -> JSONValue {
        let (path, document, offset) = try documentPosition(params)
        guard let live = await liveSite(for: path), let site = live.site, let named = reference(at: offset, in: document, path: path, live: live),
            let target = await live.definition(for: named.key)
        else { return .array([]) }
        let includeDeclaration = params["context"]?["includeDeclaration"]?.boolValue ?? false
        var locations: [JSONValue] = []
        if includeDeclaration, let (file, range) = termLocation(target, live: live) { locations.append(Self.location(file, range)) }
        for (file, record) in currentRecords(live) {
            try checkCancellation()
            let uses = record.allReferences.filter { site.definition(for: $0.key)?.key == target.key }
            guard !uses.isEmpty, let text = try? openDocument(file) else { continue }
            for use in uses {
                let start = text.offset(ofSourceLine: use.location.line, column: use.location.column)
                let range = use.isAutomatic ? start..<(start + use.shown.utf8.count) : Self.span(of: use.location, in: text)
                locations.append(Self.location(file, Self.lspRange(text, range)))
            }
        }
        return .array(locations)
    }

    func documentSymbols(_ params: JSONValue) async throws(JSONRPC.Failure) -> JSONValue {
        guard let uri = params["textDocument"]?["uri"]?.stringValue, let path = Self.path(uri) else {
            throw .invalidParams("textDocument.uri must be a file URI")
        }
        let document = try openDocument(path, uri: uri)
        return .array(
            Self.headings(document).map { heading in
                let range = Self.lspRange(document, heading.range)
                return .object([("name", .string(heading.text)), ("kind", .int(15)), ("range", range), ("selectionRange", range)])
            })
    }

    /// Whether a `[[` on line `lineNumber` after `before` is no reference: escaped (`\[[`), in a code span (after an
    /// odd number of backticks on its line) or in a fenced code block.
    static func isCode(_ document: TextDocument, line lineNumber: Int, before: Substring) -> Bool {
        if before.hasSuffix("\\") || before.count(where: { $0 == "`" }) % 2 == 1 { return true }
        var fence: String?
        for number in 0..<lineNumber { fence = Self.fence(after: document.lineText(number).trimmingCharacters(in: .whitespaces), in: fence) }
        return fence != nil
    }

    /// The code fence open after a line (`trimmed`, its white space off) when `fence` was open before it: the line's own
    /// when it opens one, nil when it closes `fence`.
    static func fence(after trimmed: String, in fence: String?) -> String? {
        if let fence { return trimmed.hasPrefix(fence) ? nil : fence }
        return trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") ? String(trimmed.prefix(3)) : nil
    }

    /// A page's headings (ATX and setext, in block quotes too) outside its front matter and code, with their lines.
    static func headings(_ document: TextDocument) -> [(text: String, range: Range<Int>)] {
        var headings: [(text: String, range: Range<Int>)] = []
        var fence: String?
        var lineNumber = 0
        var previous: (text: String, range: Range<Int>)?
        if document.lineText(0) == "---" {
            lineNumber = 1
            while lineNumber < document.lineCount && document.lineText(lineNumber) != "---" && document.lineText(lineNumber) != "..." { lineNumber += 1 }
            lineNumber += 1
        }
        while lineNumber < document.lineCount {
            let bytes = document.line(lineNumber)
            // The line inside its block quotes' markers; four spaces (or a tab) of indentation make it code.
            var text = Substring(String(decoding: bytes, as: UTF8.self))
            while case let spaces = text.prefix(while: { $0 == " " }).count, spaces <= 3, text.dropFirst(spaces).first == ">" {
                text = text.dropFirst(spaces + 1)
                if text.first == " " { text = text.dropFirst() }
            }
            let isCode = text.prefix(while: { $0 == " " }).count >= 4 || text.first == "\t"
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            defer { lineNumber += 1 }
            // A fence's lines, the fence's own too, are code.
            let wasInFence = fence != nil
            fence = Self.fence(after: trimmed, in: fence)
            if wasInFence || fence != nil {
                previous = nil
                continue
            }
            let range = bytes.startIndex..<bytes.endIndex
            let hashes = trimmed.prefix { $0 == "#" }.count
            if !isCode, (1...6).contains(hashes), trimmed.count == hashes || trimmed.dropFirst(hashes).first == " " {
                var title = trimmed.dropFirst(hashes).trimmingCharacters(in: .whitespaces)
                while title.hasSuffix("#") { title.removeLast() }
                headings.append((Self.headingText(title.trimmingCharacters(in: .whitespaces)), range))
                previous = nil
                continue
            }
            if let above = previous, !trimmed.isEmpty, trimmed.allSatisfy({ $0 == "=" }) || trimmed.allSatisfy({ $0 == "-" }) {
                headings.append(above)
                previous = nil
                continue
            }
            previous = trimmed.isEmpty || isCode ? nil : (Self.headingText(trimmed), range)
        }
        return headings
    }

    /// A heading's text as a reader sees it: `[[shown|word]]` as its shown text, `{#id}` left out.
    static func headingText(_ markdown: String) -> String {
        var text = markdown
        if let id = text.range(of: " {#", options: .backwards), text.hasSuffix("}") { text = String(text[..<id.lowerBound]) }
        while let open = text.range(of: "[["), let close = text.range(of: "]]", range: open.upperBound..<text.endIndex) {
            let inner = text[open.upperBound..<close.lowerBound]
            let shown = inner.split(separator: "|", maxSplits: 1).first.map(String.init) ?? ""
            text.replaceSubrange(open.lowerBound..<close.upperBound, with: shown)
        }
        return text
    }

    func workspaceSymbols(_ params: JSONValue) async throws(JSONRPC.Failure) -> JSONValue {
        guard let query = params["query"]?.stringValue else { throw .invalidParams("workspace/symbol takes a query") }
        let wanted = query.lowercased()
        var symbols: [JSONValue] = []
        for root in sites.keys.sorted() {
            guard let live = await sites[root]?.value, let site = live.site else { continue }
            let terms = site.team.filter { $0.key == $0.value.key }.values.sorted { $0.title < $1.title }
            for definition in terms where wanted.isEmpty || definition.title.lowercased().contains(wanted) {
                guard let (file, range) = termLocation(definition, live: live) else { continue }
                symbols.append(
                    .object([("name", .string(definition.title)), ("kind", .int(14)), ("location", Self.location(file, range)), ("containerName", "terms")]))
            }
            for record in site.pages where record.page.kind == .page && (wanted.isEmpty || record.title.lowercased().contains(wanted)) {
                let start = Self.lspPosition((0, 0))
                symbols.append(
                    .object([
                        ("name", .string(record.title)), ("kind", .int(1)),
                        ("location", Self.location(root + "/" + record.page.displayPath, .object([("start", start), ("end", start)]))),
                        ("containerName", "pages"),
                    ]))
            }
        }
        return .array(symbols)
    }
}

extension Array where Element == String {
    /// The names once each, in order.
    func uniquedNames() -> [String] {
        var seen = Set<String>()
        return filter { seen.insert($0).inserted }
    }
}
