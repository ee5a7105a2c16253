import Foundation
import GlossaryKit

/// Rename and code actions: edits across the site, made from the same reading of it as the checks.
extension LanguageServer {
    /// The team term at a position: a reference to it or its entry's `term:`.
    func teamTerm(_ params: JSONValue) async throws(JSONRPC.Failure) -> (LiveSite, Named, TermDefinition) {
        let (path, document, offset) = try documentPosition(params)
        guard let live = await liveSite(for: path), let named = reference(at: offset, in: document, path: path, live: live),
            let definition = await live.definition(for: named.key), definition.isTeamEntry
        else {
            throw JSONRPC.Failure(
                code: JSONRPC.Failure.requestFailed, message: "Only a team term can be renamed: place the cursor on a reference to one or on its entry's term")
        }
        return (live, named, definition)
    }

    func prepareRename(_ params: JSONValue) async throws(JSONRPC.Failure) -> JSONValue {
        let (_, document, _) = try documentPosition(params)
        let (_, named, definition) = try await teamTerm(params)
        return .object([("range", Self.lspRange(document, named.wordRange)), ("placeholder", .string(definition.word))])
    }

    func rename(_ params: JSONValue) async throws(JSONRPC.Failure) -> JSONValue {
        guard let newName = params["newName"]?.stringValue else { throw .invalidParams("rename takes a newName") }
        let (live, _, definition) = try await teamTerm(params)
        guard let site = live.site, let newKey = TermKey(newName)?.inLanguage(definition.key.language) else {
            throw .invalidParams("'\(newName)' is not a term")
        }
        if let problem = Self.unwritable(newName) { throw .invalidParams("'\(newName)' can't be a term: \(problem)") }
        if let other = site.team[newKey], other.key != definition.key {
            throw JSONRPC.Failure(code: JSONRPC.Failure.requestFailed, message: Problem.duplicateTerm(name: newKey.rawValue).message)
        }
        var changes: [String: [JSONValue]] = [:]
        if let (file, range) = termLocation(definition, live: live) {
            changes[file, default: []].append(.object([("range", range), ("newText", .string(Self.yamlScalar(newName)))]))
        }
        for (file, record) in currentRecords(live) {
            try checkCancellation()
            // A reference by one of the term's forms (`[[keyboards]]`) names the new term after a bar, keeping its
            // text; one by an alias stays as it is, since the entry keeps its aliases.
            let uses = record.references.filter { !$0.isAutomatic && ($0.key == definition.key || site.forms[$0.key] == definition.key) }
            guard !uses.isEmpty, let text = try? openDocument(file) else { continue }
            for use in uses {
                let start = text.offset(ofSourceLine: use.location.line, column: use.location.column)
                guard let named = Self.explicitReference(in: text, at: start) else { continue }
                let hasShownText = named.wordRange.lowerBound > named.range.lowerBound + 2
                let replacement = named.key == definition.key || hasShownText ? newName : text.text(named.wordRange) + "|" + newName
                changes[file, default: []].append(Self.textEdit(Self.lspRange(text, named.wordRange), replacement))
            }
        }
        return .object([("changes", .object(changes.sorted { $0.key < $1.key }.map { (Self.uri($0.key), .array($0.value)) }))])
    }

    func codeActions(_ params: JSONValue) async throws(JSONRPC.Failure) -> JSONValue {
        guard let uri = params["textDocument"]?["uri"]?.stringValue, let path = Self.path(uri), let range = Self.range(params["range"]) else {
            throw .invalidParams("codeAction takes a textDocument and a range")
        }
        let document = try openDocument(path, uri: uri)
        guard let live = await liveSite(for: path), let site = live.site else { return .array([]) }
        let offset = document.offset(line: range.start.0, character: range.start.1)
        let contentFolder = live.root.path + "/content/"
        let contentPath = path.hasPrefix(contentFolder) ? String(path.dropFirst(contentFolder.count)) : path
        var actions = Self.termStatusFixes(params["context"]?["diagnostics"], in: document, contentPath: contentPath, live: live)
        if var named = Self.explicitReference(in: document, at: offset) {
            // A page's terms are its language's, and a new entry goes to its language's glossary folder.
            let languages = site.config.siteLanguages
            let language = languages.keyLanguage(ofContentPath: contentPath)
            named.key = named.key.inLanguage(language)
            guard await live.definition(for: named.key) == nil else { return .array(actions) }
            // A new entry for the word.
            let glossary = languages.glossaryFolder(language.isEmpty ? languages.defaultLanguage : language)
            guard Self.unwritable(named.word) == nil else { return .array(actions) }
            // A file of its own: a name another entry's file has (one whose term is spelt otherwise) gets a number.
            var name = named.key.slug
            var number = 1
            while FileManager.default.fileExists(atPath: contentFolder + glossary + name + ".md") {
                number += 1
                name = "\(named.key.slug)-\(number)"
            }
            let file = Self.uri(contentFolder + glossary + name + ".md")
            let entry = "---\nterm: \(Self.yamlScalar(named.word))\n---\n\nWhat '\(named.word)' means here.\n"
            let start = Self.lspRange(TextDocument(uri: file, version: 0, text: ""), 0..<0)
            let created: JSONValue = .object([
                (
                    "documentChanges",
                    .array([
                        .object([("kind", "create"), ("uri", .string(file))]),
                        .object([("textDocument", .object([("uri", .string(file)), ("version", .null)])), ("edits", .array([Self.textEdit(start, entry)]))]),
                    ])
                )
            ])
            actions.append(Self.quickFix("Create a glossary entry for '\(named.word)'", edit: created))
            // The nearest names the site has.
            for name in Self.nearMisses(named.key, in: site) {
                let edit = Self.changes(uri, [Self.textEdit(Self.lspRange(document, named.wordRange), name)])
                actions.append(Self.quickFix("Did you mean '\(name)'?", edit: edit))
            }
            return .array(actions)
        }
        // A plain word the site defines, not linked.
        if let wordRange = Self.word(in: document, at: offset), let key = TermKey(document.text(wordRange)), site.team[key] != nil {
            let edit = Self.changes(uri, [Self.textEdit(Self.lspRange(document, wordRange), "[[\(document.text(wordRange))]]")])
            actions.append(Self.quickFix("Link this word", edit: edit))
        }
        return .array(actions)
    }

    /// Why `name` can't be written as a term in a reference and an entry (nil when it can): a reference is one line,
    /// its bar and brackets are its own, and a term is at most `TermKey.maximumWordLength` characters.
    static func unwritable(_ name: String) -> String? {
        if name.contains(where: \.isNewline) { return "a term is one line" }
        if name.contains("|") || name.contains("[[") || name.contains("]]") { return "'|', '[[' and ']]' belong to references" }
        if let length = TermKey.excessLength(of: name) { return "it is \(length) characters long, more than a term may have (\(TermKey.maximumWordLength))" }
        return nil
    }

    /// `text` as a YAML scalar for an entry's `term:`: as it is when YAML reads it back as the same string (words,
    /// digits after a letter, spaces, `-`, `.`, `'` inside), else double-quoted.
    static func yamlScalar(_ text: String) -> String {
        let isPlain =
            text.first.map(\.isLetter) == true && text.last.map { $0.isLetter || $0.isNumber || $0 == "." } == true
            && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "." || $0 == "'" || $0 == "’" }
            && !text.contains("  ") && !["true", "false", "yes", "no", "on", "off", "null", "y", "n"].contains(text.lowercased())
        return isPlain ? text : JSONWriter.quoted(text, htmlSafe: false)
    }

    /// "Use 'log in'" for each `deprecated-term` and `forbidden-term` of `diagnostics` (the request's context) whose
    /// entry names the term to write: the name as written, found again on its line by the site's check, replaced by
    /// that term. Only the name's own range changes, so a reference keeps its brackets, its bar and its other half.
    static func termStatusFixes(_ diagnostics: JSONValue?, in document: TextDocument, contentPath: String, live: LiveSite) -> [JSONValue] {
        let codes: Set = [DiagnosticCode.deprecatedTerm.rawValue, DiagnosticCode.forbiddenTerm.rawValue]
        var actions: [JSONValue] = []
        for diagnostic in diagnostics?.arrayValue ?? [] {
            guard let code = diagnostic["code"]?.stringValue, codes.contains(code), let range = range(diagnostic["range"]) else { continue }
            let start = document.offset(line: range.start.0, character: range.start.1)
            let line = document.line(range.start.0)
            let hits = live.discouragedNames(in: document.text(line.startIndex..<line.endIndex), contentPath: contentPath)
            guard let hit = hits.first(where: { line.startIndex + $0.range.lowerBound == start }), let preferred = hit.name.preferred else { continue }
            let edit = changes(document.uri, [textEdit(lspRange(document, start..<(line.startIndex + hit.range.upperBound)), preferred)])
            actions.append(quickFix("Use '\(preferred)'", edit: edit, fixing: diagnostic))
        }
        return actions
    }

    static func textEdit(_ range: JSONValue, _ text: String) -> JSONValue { .object([("range", range), ("newText", .string(text))]) }

    /// A workspace edit of one document.
    static func changes(_ uri: String, _ edits: [JSONValue]) -> JSONValue { .object([("changes", .object([(uri, .array(edits))]))]) }

    /// A quick fix; one `fixing` a diagnostic names it and is the preferred fix for it.
    static func quickFix(_ title: String, edit: JSONValue, fixing diagnostic: JSONValue? = nil) -> JSONValue {
        .members([
            ("title", .string(title)), ("kind", "quickfix"), ("diagnostics", diagnostic.map { .array([$0]) }),
            ("isPreferred", diagnostic.map { _ in .bool(true) }), ("edit", edit),
        ])
    }

    /// The names of the site (terms, aliases, forms in use) nearest `key` by edit distance, at most two edits away.
    static func nearMisses(_ key: TermKey, in site: BuiltSite) -> [String] {
        var names: [String: String] = [:]
        // Names of the key's language only.
        for (name, definition) in site.team where name.language == key.language {
            names[name.rawValue] = name == definition.key ? definition.word : name.rawValue
        }
        for forms in site.formsUsed.values {
            for form in forms where form.language == key.language && names[form.rawValue] == nil { names[form.rawValue] = form.rawValue }
        }
        let word = Array(key.rawValue)
        let scored = names.map { (name: $0.value, distance: editDistance(word, Array($0.key))) }.filter { $0.distance > 0 && $0.distance <= 2 }
        guard let best = scored.map(\.distance).min() else { return [] }
        return scored.filter { $0.distance == best }.map(\.name).sorted()
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
