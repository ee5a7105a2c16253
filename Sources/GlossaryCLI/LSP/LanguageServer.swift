import Foundation
import GlossaryKit
import GlossaryServer

/// The language server's state and its dispatch: each message the reading thread passes on is handled in order;
/// checks of edited documents run beside, each superseded by the next edit of its document.
actor LanguageServer {
    let writer: MessageWriter
    let ledger: RequestLedger
    /// The sites of the workspace, by the folder holding their `glossary.yml`, each loading or loaded.
    var sites: [String: Task<LiveSite, Never>] = [:]
    /// Open documents by their file's path.
    var documents: [String: TextDocument] = [:]
    /// The running check of each open document.
    var checks: [String: Task<Void, Never>] = [:]
    /// Documents edited while their check ran: checked again when it ends.
    var recheck: Set<String> = []
    /// Each open document's record as its last check read it, with the document's version then.
    var records: [String: (version: Int, record: PageRecord)] = [:]
    /// Files whose diagnostics were published from disk, by site.
    var published: [String: Set<String>] = [:]
    var initialized = false
    /// The request being answered, whose cancellation long work looks for between files.
    var current: JSONValue?
    var workspaceFolders: [URL] = []
    var clientWatchesFiles = false
    var nextRequestID = 1
    /// The completion candidates of each loaded site, with their items' fixed members (made once per load).
    var completionItems: [String: [(candidate: CompletionCandidate, members: [(key: String, value: JSONValue)])]] = [:]
    /// Whether the client takes a completion list's edit range once for all its items (`itemDefaults.editRange`).
    var completionEditRangeDefault = false
    /// Whether the client shows markdown in completion items' documentation, and in hovers.
    var markdownCompletions = false
    var markdownHovers = false
    /// The server's own watchers, one per site, when the client watches no files for it.
    var watchers: [String: AutomaticWatcher] = [:]
    /// Whether the client has said it is ready (`initialized`): watching starts then.
    var watchingStarted = false

    init(writer: MessageWriter, ledger: RequestLedger) {
        self.writer = writer
        self.ledger = ledger
    }

    func handle(_ message: JSONRPC.Message) async {
        switch message {
        case .response:
            return
        case .notification(let method, let params):
            await notify(method, params)
        case .request(let id, let method, let params):
            let answer: Result<JSONValue, JSONRPC.Failure>
            if ledger.takeCancellation(id) {
                answer = .failure(.init(code: JSONRPC.Failure.requestCancelled, message: "Cancelled"))
            } else {
                current = id
                answer = await respond(method, params, id: id)
                current = nil
            }
            if ledger.takeCancellation(id) {
                writer.send(JSONRPC.response(id: id, failure: .init(code: JSONRPC.Failure.requestCancelled, message: "Cancelled")))
                return
            }
            switch answer {
            case .success(let result): writer.send(JSONRPC.response(id: id, result: result))
            case .failure(let failure): writer.send(JSONRPC.response(id: id, failure: failure))
            }
        }
    }

    func respond(_ method: String, _ params: JSONValue, id: JSONValue) async -> Result<JSONValue, JSONRPC.Failure> {
        // After `shutdown` only `exit` is expected (the protocol's rule); `initialize` comes once.
        if ledger.isShutDown { return .failure(.init(code: JSONRPC.Failure.invalidRequest, message: "The server is shut down; only 'exit' is expected")) }
        if method == "initialize" {
            guard !initialized else { return .failure(.init(code: JSONRPC.Failure.invalidRequest, message: "The server is initialized already")) }
            return initialize(params)
        }
        guard initialized else { return .failure(.init(code: JSONRPC.Failure.serverNotInitialized, message: "The server is not initialized")) }
        do {
            switch method {
            case "shutdown":
                ledger.isShutDown = true
                return .success(.null)
            case "textDocument/completion": return .success(try await completion(params))
            case "textDocument/hover": return .success(try await hover(params))
            case "textDocument/definition": return .success(try await definition(params))
            case "textDocument/references": return .success(try await references(params))
            case "textDocument/documentSymbol": return .success(try await documentSymbols(params))
            case "workspace/symbol": return .success(try await workspaceSymbols(params))
            case "textDocument/prepareRename": return .success(try await prepareRename(params))
            case "textDocument/rename": return .success(try await rename(params))
            case "textDocument/codeAction": return .success(try await codeActions(params))
            default: return .failure(.init(code: JSONRPC.Failure.methodNotFound, message: "Unknown method '\(method)'"))
            }
        } catch {
            // Every request's handler throws only `JSONRPC.Failure`.
            return .failure(error)
        }
    }

    func notify(_ method: String, _ params: JSONValue) async {
        switch method {
        case "initialized":
            await startWatching()
        case "textDocument/didOpen":
            guard let item = params["textDocument"], let uri = item["uri"]?.stringValue, let text = item["text"]?.stringValue,
                let path = Self.path(uri)
            else { return }
            documents[path] = TextDocument(uri: uri, version: item["version"]?.intValue ?? 0, text: text)
            scheduleCheck(path)
        case "textDocument/didChange":
            guard let uri = params["textDocument"]?["uri"]?.stringValue, let path = Self.path(uri), var document = documents[path],
                let changes = params["contentChanges"]?.arrayValue
            else { return }
            for change in changes {
                guard let text = change["text"]?.stringValue else { continue }
                document.apply(range: Self.range(change["range"]), text: text)
            }
            document.version = params["textDocument"]?["version"]?.intValue ?? document.version + 1
            documents[path] = document
            scheduleCheck(path)
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.stringValue, let path = Self.path(uri) else { return }
            documents[path] = nil
            records[path] = nil
            recheck.remove(path)
            // Back to what the files on disk say.
            if let root = Self.siteRoot(containing: URL(fileURLWithPath: path)) { await publishFromDisk(root: root.path) }
        case "workspace/didChangeWatchedFiles":
            let paths = (params["changes"]?.arrayValue ?? []).compactMap { $0["uri"]?.stringValue.flatMap(Self.path) }
            await filesChanged(paths)
        case "workspace/didChangeWorkspaceFolders":
            for folder in params["event"]?["removed"]?.arrayValue ?? [] {
                if let path = folder["uri"]?.stringValue.flatMap(Self.path) { forgetWorkspaceFolder(URL(fileURLWithPath: path)) }
            }
            for folder in params["event"]?["added"]?.arrayValue ?? [] {
                if let path = folder["uri"]?.stringValue.flatMap(Self.path) { workspaceFolders.append(URL(fileURLWithPath: path)) }
            }
            await loadWorkspaceSites()
        default:
            return
        }
    }

    func initialize(_ params: JSONValue) -> Result<JSONValue, JSONRPC.Failure> {
        guard params.isObject else { return .failure(.invalidParams("initialize takes an object")) }
        for folder in params["workspaceFolders"]?.arrayValue ?? [] {
            if let path = folder["uri"]?.stringValue.flatMap(Self.path) { workspaceFolders.append(URL(fileURLWithPath: path)) }
        }
        if workspaceFolders.isEmpty, let path = params["rootUri"]?.stringValue.flatMap(Self.path) ?? params["rootPath"]?.stringValue {
            workspaceFolders.append(URL(fileURLWithPath: path))
        }
        let defaults = params["capabilities"]?["textDocument"]?["completion"]?["completionList"]?["itemDefaults"]?.arrayValue ?? []
        completionEditRangeDefault = defaults.contains { $0.stringValue == "editRange" }
        let textDocument = params["capabilities"]?["textDocument"]
        markdownCompletions = Self.takesMarkdown(textDocument?["completion"]?["completionItem"]?["documentationFormat"])
        markdownHovers = Self.takesMarkdown(textDocument?["hover"]?["contentFormat"])
        clientWatchesFiles = params["capabilities"]?["workspace"]?["didChangeWatchedFiles"]?["dynamicRegistration"]?.boolValue == true
        initialized = true
        for folder in workspaceFolders { _ = site(root: Self.siteRoot(containing: folder)) }
        let capabilities: JSONValue = .object([
            ("textDocumentSync", .object([("openClose", .bool(true)), ("change", .int(2)), ("save", .bool(true))])),
            (
                "completionProvider",
                .object([("triggerCharacters", .array(["[", "|", "("])), ("resolveProvider", .bool(false))])
            ),
            ("hoverProvider", .bool(true)),
            ("definitionProvider", .bool(true)),
            ("referencesProvider", .bool(true)),
            ("documentSymbolProvider", .bool(true)),
            ("workspaceSymbolProvider", .bool(true)),
            ("renameProvider", .object([("prepareProvider", .bool(true))])),
            ("codeActionProvider", .object([("codeActionKinds", .array(["quickfix"]))])),
            (
                "workspace",
                .object([("workspaceFolders", .object([("supported", .bool(true)), ("changeNotifications", .bool(true))]))])
            ),
        ])
        return .success(
            .object([
                ("capabilities", capabilities),
                ("serverInfo", .object([("name", "glossary"), ("version", .string(GlossaryVersion.current))])),
            ]))
    }

    /// Whether a client's list of markup kinds holds markdown.
    static func takesMarkdown(_ formats: JSONValue?) -> Bool {
        (formats?.arrayValue ?? []).contains { $0.stringValue == "markdown" }
    }

    /// Throws once the client has cancelled the request being answered (checked between files of a site).
    func checkCancellation() throws(JSONRPC.Failure) {
        if let current, ledger.isCancelled(current) { throw JSONRPC.Failure(code: JSONRPC.Failure.requestCancelled, message: "Cancelled") }
    }

    // MARK: Sites

    /// The site whose `glossary.yml` is in `root`, loaded once (nil for none).
    func site(root: URL?) -> Task<LiveSite, Never>? {
        guard let root else { return nil }
        if let task = sites[root.path] { return task }
        let task = Task { await LiveSite.check(root: root) }
        sites[root.path] = task
        watch(root.path)
        Task { await self.siteLoaded(root.path) }
        return task
    }

    /// The loaded site a file belongs to.
    func liveSite(for path: String) async -> LiveSite? {
        guard let task = site(root: Self.siteRoot(containing: URL(fileURLWithPath: path))) else { return nil }
        return await task.value
    }

    func siteLoaded(_ root: String) async {
        guard let live = await sites[root]?.value else { return }
        completionItems[root] = CompletionCandidate.all(in: live).map { ($0, $0.members(markdown: markdownCompletions)) }
        await publishFromDisk(root: root)
        for path in documents.keys where path.hasPrefix(root + "/") { scheduleCheck(path) }
    }

    /// Drops a workspace folder, and the sites it held that no other folder holds and no open document is in.
    func forgetWorkspaceFolder(_ folder: URL) {
        workspaceFolders.removeAll { $0.standardizedFileURL.path == folder.standardizedFileURL.path }
        let kept = Set(workspaceFolders.compactMap { Self.siteRoot(containing: $0)?.path })
        let open = Set(documents.keys.compactMap { Self.siteRoot(containing: URL(fileURLWithPath: $0))?.path })
        guard let root = Self.siteRoot(containing: folder)?.path, !kept.contains(root), !open.contains(root) else { return }
        sites[root] = nil
        completionItems[root] = nil
        watchers.removeValue(forKey: root)?.stop()
    }

    func loadWorkspaceSites() async {
        for folder in workspaceFolders { _ = site(root: Self.siteRoot(containing: folder)) }
    }

    /// Files changed outside the editor: their sites are read again.
    func filesChanged(_ paths: [String]) async {
        let roots = Set(paths.compactMap { path in sites.keys.filter { path.hasPrefix($0 + "/") }.max(by: { $0.count < $1.count }) })
        for root in roots {
            let previous = sites[root]
            let task = Task { () -> LiveSite in
                let dictionaries = await previous?.value.dictionaries
                return await LiveSite.check(root: URL(fileURLWithPath: root), dictionaries: dictionaries)
            }
            sites[root] = task
            _ = await task.value
            await siteLoaded(root)
        }
    }

    /// Publishes what the check of the files on disk says of every file not open, and clears what it no longer says.
    func publishFromDisk(root: String) async {
        guard let live = await sites[root]?.value else { return }
        var byFile: [String: [Diagnostic]] = [:]
        for diagnostic in live.result.diagnostics {
            guard let file = diagnostic.location?.file else { continue }
            byFile[root + "/" + file, default: []].append(diagnostic)
        }
        let before = published[root] ?? []
        for path in before.union(byFile.keys) where documents[path] == nil {
            let diagnostics = byFile[path] ?? []
            let text = diagnostics.isEmpty ? "" : (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let document = TextDocument(uri: Self.uri(path), version: 0, text: text)
            publish(uri: document.uri, version: nil, diagnostics: diagnostics.map { lspDiagnostic($0, in: document, root: root) })
        }
        published[root] = Set(byFile.keys)
    }

    /// Checks an open document from its unsaved text, beside the handling of further messages.
    ///
    /// One check of a document runs at a time: an edit made meanwhile is checked when it ends (only the last of
    /// several), so fast typing in a large page never piles up readings of it.
    func scheduleCheck(_ path: String) {
        guard checks[path] == nil else {
            recheck.insert(path)
            return
        }
        guard let document = documents[path], let root = Self.siteRoot(containing: URL(fileURLWithPath: path)) else { return }
        let task = site(root: root)
        let contentFolder = root.path + "/content/"
        // Off the server's own executor: reading a large page must not hold up other messages.
        checks[path] = Task.detached {
            if let live = await task?.value {
                var diagnostics: [Diagnostic]
                if path.hasPrefix(contentFolder) && path.hasSuffix(".md") {
                    let checked = await live.check(text: document.text, contentPath: String(path.dropFirst(contentFolder.count)))
                    diagnostics = checked.diagnostics
                    if let record = checked.record { await self.keep(record, path: path, version: document.version) }
                } else {
                    diagnostics = live.result.diagnostics.filter { $0.location.map { root.path + "/" + $0.file } == path }
                }
                let shown = diagnostics.map { self.lspDiagnostic($0, in: document, root: root.path) }
                await self.publishIfCurrent(path: path, version: document.version, shown)
            }
            await self.checkEnded(path)
        }
    }

    func checkEnded(_ path: String) {
        checks[path] = nil
        if recheck.remove(path) != nil { scheduleCheck(path) }
    }

    func keep(_ record: PageRecord, path: String, version: Int) {
        guard documents[path]?.version == version else { return }
        records[path] = (version, record)
    }

    func publishIfCurrent(path: String, version: Int, _ diagnostics: [JSONValue]) {
        guard let document = documents[path], document.version == version else { return }
        publish(uri: document.uri, version: version, diagnostics: diagnostics)
    }

    nonisolated func publish(uri: String, version: Int?, diagnostics: [JSONValue]) {
        writer.send(
            JSONRPC.notification(
                "textDocument/publishDiagnostics",
                .members([("uri", .string(uri)), ("version", version.map { .int($0) }), ("diagnostics", .array(diagnostics))])))
    }

    // MARK: Paths and positions

    /// The folder at or above `url` holding a `glossary.yml`.
    static func siteRoot(containing url: URL) -> URL? {
        var folder = url.standardizedFileURL
        if !isFolder(folder) { folder.deleteLastPathComponent() }
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("glossary.yml").path) { return folder }
            let parent = folder.deletingLastPathComponent()
            guard parent.path != folder.path, !parent.path.isEmpty else { return nil }
            folder = parent
        }
    }

    static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func path(_ uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return url.standardizedFileURL.path
    }

    static func uri(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    static func range(_ value: JSONValue?) -> (start: (Int, Int), end: (Int, Int))? {
        guard let value, let start = position(value["start"]), let end = position(value["end"]) else { return nil }
        return (start, end)
    }

    static func position(_ value: JSONValue?) -> (Int, Int)? {
        guard let line = value?["line"]?.intValue, let character = value?["character"]?.intValue, line >= 0, character >= 0 else { return nil }
        return (line, character)
    }

    static func lspPosition(_ position: (line: Int, character: Int)) -> JSONValue {
        .object([("line", .int(position.line)), ("character", .int(position.character))])
    }

    static func lspRange(_ document: TextDocument, _ range: Range<Int>) -> JSONValue {
        .object([("start", lspPosition(document.position(ofOffset: range.lowerBound))), ("end", lspPosition(document.position(ofOffset: range.upperBound)))])
    }

    /// The text a diagnostic points at: a whole `[[reference]]`, else the word at its column (at least one character).
    static func span(of location: SourceLocation, in document: TextDocument) -> Range<Int> {
        let start = document.offset(ofSourceLine: location.line, column: location.column)
        let line = document.line(location.line - 1)
        guard start < line.endIndex else { return start..<start }
        if start + 1 < line.endIndex && line[start] == UInt8(ascii: "[") && line[start + 1] == UInt8(ascii: "[") {
            var index = start + 2
            while index + 1 < line.endIndex {
                if line[index] == UInt8(ascii: "]") && line[index + 1] == UInt8(ascii: "]") { return start..<(index + 2) }
                index += 1
            }
            return start..<line.endIndex
        }
        var end = start
        while end < line.endIndex && !Self.isSpace(line[end]) { end += 1 }
        return start..<max(end, start + 1)
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 }

    /// A diagnostic as the LSP has it, its notes as related information.
    nonisolated func lspDiagnostic(_ diagnostic: Diagnostic, in document: TextDocument, root: String) -> JSONValue {
        let range: JSONValue =
            diagnostic.location.map { Self.lspRange(document, Self.span(of: $0, in: document)) }
            ?? Self.lspRange(document, 0..<0)
        let related = diagnostic.notes.map { note -> JSONValue in
            let location = note.location.map { location -> JSONValue in
                let path = root + "/" + location.file
                let text =
                    path == Self.path(document.uri)
                    ? document : TextDocument(uri: Self.uri(path), version: 0, text: (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
                return .object([("uri", .string(text.uri)), ("range", Self.lspRange(text, Self.span(of: location, in: text)))])
            }
            return .object([("location", location ?? .object([("uri", .string(document.uri)), ("range", range)])), ("message", .string(note.message))])
        }
        return .members([
            ("range", range),
            ("severity", .int(diagnostic.severity == .error ? 1 : diagnostic.severity == .warning ? 2 : 3)),
            ("code", .string(diagnostic.code.rawValue)),
            ("codeDescription", .object([("href", .string(Self.codeURL(diagnostic.code)))])),
            ("source", "glossary"),
            ("message", .string(diagnostic.message)),
            ("relatedInformation", related.isEmpty ? nil : .array(related)),
        ])
    }

    /// Where a code is explained: a `glossary:` URI naming the `glossary explain` command that explains it (the
    /// project publishes no web page per code).
    static func codeURL(_ code: DiagnosticCode) -> String { "glossary:explain/\(code.rawValue)" }
}
