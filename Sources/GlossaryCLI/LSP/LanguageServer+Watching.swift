import Foundation
import GlossaryKit
import GlossaryServer

/// Files changed outside the editor: the client's watching when it offers it, else the server's own.
extension LanguageServer {
    func startWatching() async {
        if clientWatchesFiles {
            let watchers: [JSONValue] = ["**/*.md", "**/glossary.yml", "**/.glossary/cache/**"].map { .object([("globPattern", .string($0))]) }
            let registration: JSONValue = .object([
                ("id", "glossary-watched-files"), ("method", "workspace/didChangeWatchedFiles"),
                ("registerOptions", .object([("watchers", .array(watchers))])),
            ])
            writer.send(JSONRPC.request(id: nextRequestID, "client/registerCapability", .object([("registrations", .array([registration]))])))
            nextRequestID += 1
            return
        }
        watchingStarted = true
        for root in sites.keys { watch(root) }
    }

    /// Starts the server's own watching of a site, once the client has said it doesn't watch files for it.
    func watch(_ root: String) {
        guard watchingStarted, !clientWatchesFiles, watchers[root] == nil else { return }
        let scope = WatchScope(root: URL(fileURLWithPath: root), paths: WatchScope.sitePaths + [".glossary/cache"])
        let watcher = AutomaticWatcher(
            scope: scope,
            onChange: { [weak self] paths in
                let changed = paths.map { $0.hasPrefix("/") ? $0 : root + "/" + $0 }
                Task { await self?.filesChanged(changed.isEmpty ? [root + "/glossary.yml"] : changed) }
            }, onFallback: { _ in })
        watcher.start()
        watchers[root] = watcher
    }
}
