import Foundation
import GlossaryKit
import Synchronization

/// `glossary serve`: builds the site into a folder of its own, serves it, watches its sources, rebuilds incrementally
/// after each change, and tells the browsers.
///
/// Serving never waits for a build: a build completes in the background, then the new site replaces the
/// old one in a single swap and only then do browsers hear of it. A failed build leaves the last good site
/// served and sends its errors instead.
public final class PreviewServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var options: BuildOptions
        public var address: ListenAddress
        /// Seconds between comment lines on an idle event stream; must be well under the idle timeout.
        public var heartbeat: TimeInterval = 10
        public var idleTimeoutSeconds = 30
        public var connectionLimit = 256
        public var connectionMemoryLimit = 32 * 1024
        /// See `HTTPServer.Configuration`: connections per client address, open event streams, and the time
        /// a request head has to arrive whole.
        public var perAddressConnectionLimit = 64
        public var streamLimit = 32
        public var headerTimeout: TimeInterval = 10
        public var debounce: TimeInterval = PollingWatcher.defaultDebounce
        /// The debounce once every changed file was last seen completing a write (inotify only).
        public var settled: TimeInterval = PollingWatcher.defaultSettled
        /// How changes are noticed: inotify (falling back to polling when it can't be used), or polling.
        public var watchMode = WatchMode.automatic
        /// Seconds between looks when polling.
        public var pollInterval = PollingWatcher.defaultInterval
        /// What is watched, relative to the site's folder.
        public var watchedPaths = WatchScope.sitePaths
        /// For tests: inotify refuses watches beyond this many, as when the system's limit is reached.
        var inotifyWatchLimit: Int?

        public init(options: BuildOptions, address: ListenAddress) {
            self.options = options
            self.address = address
        }
    }

    public enum WatchMode: Sendable, Equatable {
        case automatic, polling
    }

    /// What the server tells its owner (the command line prints it).
    public enum Report: Sendable {
        /// Something the user should know that is not about a build (watching fell back to polling).
        case warning(Diagnostic)
        /// Files changed; a build starts.
        case changed(Set<String>)
        /// A build finished: `buildID` is set when it succeeded and is now served.
        case built(IncrementalBuild, buildID: String?)
    }

    public let configuration: Configuration
    public let state = PreviewState()
    public let events: EventHub
    /// WordNet and the failed fetches, shared by the session's builds.
    private let dictionaries: Dictionaries
    private let options: BuildOptions
    private let makeFetcher: FetcherFactory?
    private let progress: @Sendable (FetchProgress) -> Void
    /// The folder the builds write and requests are served from: the server's own, never `site/`.
    public let folder: URL
    private var builds: PreviewBuilds?
    private let report: @Sendable (Report) -> Void
    private let session = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    private var buildCount = 0
    private let lock = NSLock()
    private var httpServer: HTTPServer?
    private var http: HTTPServer? {
        get { lock.withLock { httpServer } }
        set { lock.withLock { httpServer = newValue } }
    }
    private var watcher: (any FileWatcher)?
    private var triggers: AsyncStream<Void>.Continuation?
    private var loop: Task<Void, Never>?

    public init(
        configuration: Configuration, makeFetcher: FetcherFactory?, progress: @escaping @Sendable (FetchProgress) -> Void = { _ in },
        report: @escaping @Sendable (Report) -> Void = { _ in }
    ) {
        var options = configuration.options
        options.bodySuffix = LiveReload.tag
        self.configuration = configuration
        self.events = EventHub(heartbeat: configuration.heartbeat)
        self.options = options
        dictionaries = Dictionaries(options: options)
        self.progress = progress
        self.report = report
        // In a folder of its own in the system's temporary folder: the session leaves nothing in the site.
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "glossary-serve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))/site", isDirectory: true)
        // The client (and its rate limit's memory of recent requests) lasts across rebuilds; a new one is made
        // only when glossary.yml's `dictionary:` settings change.
        if let makeFetcher {
            let cache = Mutex<(settings: DictionaryConfig, fetcher: (any DefinitionFetcher)?)?>(nil)
            self.makeFetcher = { config in
                cache.withLock { current in
                    if let current, current.settings == config.dictionary { return current.fetcher }
                    let fetcher = makeFetcher(config)
                    current = (config.dictionary, fetcher)
                    return fetcher
                }
            }
        } else {
            self.makeFetcher = nil
        }
    }

    /// One build into the server's folder; builds never overlap (the first, then one at a time in the loop).
    private func build() async -> IncrementalBuild {
        guard let builds else { return IncrementalBuild(result: BuildResult(diagnostics: []), changedPaths: nil) }
        let result = await builds.build(with: SiteBuilder(options: options, makeFetcher: makeFetcher, dictionaries: dictionaries, progress: progress))
        return IncrementalBuild(result: result, changedPaths: result.outputs?.changed)
    }

    /// The port listened on (the real one when started on port 0).
    public var port: UInt16 { http?.port ?? configuration.address.port }

    /// The site's address: `http://127.0.0.1:8080/`, with `base_url`'s path when it has one.
    public var url: String {
        configuration.address.url(port: port) + URLPath.encoded(state.current.site?.mount ?? "/")
    }

    /// Builds the site, starts listening, then starts watching. Returns the first build; throws when the
    /// address can't be bound or files can't be watched.
    @discardableResult
    public func start() async throws -> IncrementalBuild {
        // A busy port is found out before a long first build, not after it.
        try HTTPServer.checkAvailable(configuration.address)
        Self.removeFoldersOfDeadServers(in: folder.deletingLastPathComponent().deletingLastPathComponent())
        do {
            builds = try PreviewBuilds(folder: folder)
        } catch {
            throw ServeFailure(description: error.description)
        }
        let first = await build()
        let id = apply(first)
        report(.built(first, buildID: id))

        let responder = SiteResponder(
            state: state, events: events, placeholder: Data(LiveReload.placeholderPage.utf8), localOnly: configuration.address.isLoopback)
        var httpConfiguration = HTTPServer.Configuration(address: configuration.address)
        httpConfiguration.idleTimeoutSeconds = configuration.idleTimeoutSeconds
        httpConfiguration.connectionLimit = configuration.connectionLimit
        httpConfiguration.connectionMemoryLimit = configuration.connectionMemoryLimit
        httpConfiguration.perAddressConnectionLimit = configuration.perAddressConnectionLimit
        httpConfiguration.streamLimit = configuration.streamLimit
        httpConfiguration.headerTimeout = configuration.headerTimeout
        let http = HTTPServer(configuration: httpConfiguration, handler: responder.respond)
        try http.start()
        self.http = http

        let (stream, triggers) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.triggers = triggers
        loop = Task { [self] in
            for await _ in stream {
                let build = await build()
                let id = apply(build)
                report(.built(build, buildID: id))
                // The previous build's memory goes back to the system, but a text edit's: it frees little, and the next
                // build reuses it.
                if !build.result.stats.textEdit { FreedMemory.giveBack() }
            }
        }
        // The definitions cache too: an entry edited by hand shows at once (the server's own writes there only
        // bring a rebuild that finds nothing else to do).
        let cache = first.result.config.map { [$0.dictionary.cache] } ?? []
        let scope = WatchScope(root: configuration.options.source, paths: configuration.watchedPaths + cache)
        builds?.watching(scope.paths)
        let changed: @Sendable (Set<String>) -> Void = { [report, builds] changes in
            report(.changed(changes))
            builds?.noteChanges(changes)
            triggers.yield()
        }
        let watcher: any FileWatcher
        switch configuration.watchMode {
        case .polling:
            watcher = PollingWatcher(scope: scope, interval: configuration.pollInterval, debounce: configuration.debounce, onChange: changed)
        case .automatic:
            let automatic = AutomaticWatcher(
                scope: scope, pollInterval: configuration.pollInterval, debounce: configuration.debounce, settled: configuration.settled,
                onChange: changed,
                onFallback: { [report] warning in report(.warning(warning)) })
            automatic.inotifyWatchLimit = configuration.inotifyWatchLimit
            watcher = automatic
        }
        do {
            try watcher.start()
        } catch {
            await stop()
            throw error
        }
        self.watcher = watcher
        return first
    }

    /// Stops watching, lets a running build finish, ends the event streams and closes every connection.
    public func stop() async {
        watcher?.stop()
        watcher = nil
        triggers?.finish()
        triggers = nil
        await loop?.value
        loop = nil
        events.close()
        http?.stop()
        http = nil
        Self.remove(folder.deletingLastPathComponent())
    }

    /// Puts a finished build in place (or its errors) and tells the browsers; returns the new build's id.
    private func apply(_ build: IncrementalBuild) -> String? {
        let result = build.result
        guard let outputs = result.outputs, let changed = build.changedPaths, let mount = result.rootPath else {
            let errors = result.errors
            _ = state.update { $0.errors = errors }
            events.publish("failed", LiveReload.failed(errors))
            return nil
        }
        buildCount += 1
        let id = "\(session)-\(buildCount)"
        // Only this method replaces the site, one build at a time: the next one is made outside the lock that
        // requests take, then swapped in.
        let previous = state.current.site
        // The same files: the same set, which the site compares as one (`ServedSite.init`).
        let paths = outputs.sameFiles ? previous?.paths ?? outputs.paths : outputs.paths
        let next = ServedSite(folder: folder, paths: paths, buildID: id, mount: mount, previous: previous)
        _ = state.update { snapshot in
            snapshot.site = next
            snapshot.errors = []
        }
        events.publish("build", LiveReload.build(id: id, changed: changed, mount: mount))
        return id
    }
}

extension PreviewServer {
    /// Deletes the served folder without holding up the stop: removed by `rm -rf` in a
    /// process of its own (unlinking a 10,000-page site on a disk that discards freed blocks took 30 s, which
    /// Ctrl-C then waited for). Removed here when `rm` can't be started; a folder `rm` leaves is removed by the
    /// next server (`removeFoldersOfDeadServers`).
    static func remove(_ folder: URL) {
        let path = folder.path
        let candidates: [String] = ["/usr/bin/rm", "/bin/rm"]
        guard let rm = candidates.first(where: { access($0, X_OK) == 0 }) else {
            try? FileManager.default.removeItem(at: folder)
            return
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group: a second Ctrl-C at the terminal doesn't stop the clean-up.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let arguments = [rm, "-rf", "--", path]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var spawned: pid_t = 0
        guard posix_spawn(&spawned, rm, nil, &attributes, &argv, environ) == 0 else {
            try? FileManager.default.removeItem(at: folder)
            return
        }
        // Reaped on a thread of its own, so a server stopped within a longer-lived process leaves no zombie.
        let child = spawned
        Thread { waitpid(child, nil, 0) }.start()
    }

    /// Folders `glossary-serve-PID-…` of servers whose process is gone (killed before they could clean up).
    static func removeFoldersOfDeadServers(in parent: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix("glossary-serve-") {
            let parts = name.split(separator: "-")
            guard parts.count == 4, let pid = Int32(parts[2]), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }
}
