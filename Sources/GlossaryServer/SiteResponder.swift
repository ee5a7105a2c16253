import Foundation
import GlossaryKit

/// Answers requests from the current build's folder: files, folders' `index.html`, redirects, conditional
/// requests, the theme's 404 page, and the live-reload event stream.
public struct SiteResponder: Sendable {
    public static let eventsPath = "/_glossary/events"
    static let script = Data(LiveReload.script.utf8)

    let state: PreviewState
    let events: EventHub
    /// The page served for every path before any build has succeeded (it carries the live-reload script).
    let placeholder: Data
    /// Whether to answer only requests addressed to this machine (when listening on loopback).
    let localOnly: Bool

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .plain(405, "Method not allowed\n", headers: [("Allow", "GET, HEAD")])
        }
        // A page elsewhere could point its own name at 127.0.0.1 (DNS rebinding) and read the preview through
        // the browser; its requests carry its name in Host, so they are turned away.
        if localOnly, let host = request.header("Host"), !Self.isLocal(host) {
            return .plain(403, "This preview server only answers requests for localhost or 127.0.0.1, not '\(host)'.\n")
        }
        if request.rawPath == Self.eventsPath {
            return eventStream(head: request.method == "HEAD")
        }
        if request.rawPath == LiveReload.scriptPath {
            let headers: [(name: String, value: String)] = [
                ("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-cache"), ("ETag", LiveReload.scriptETag),
            ]
            if Self.notModified(request, etag: LiveReload.scriptETag, lastModified: .distantFuture) {
                return HTTPResponse(status: 304, headers: headers)
            }
            return HTTPResponse(status: 200, headers: headers, body: .bytes(Self.script))
        }
        let snapshot = state.current
        switch RequestPath(raw: request.rawPath) {
        case .malformed: return .plain(400, "Bad request\n")
        case .forbidden: return .plain(403, "Forbidden\n")
        case .hidden: return notFound(snapshot.site)
        case .path(let path):
            guard let site = snapshot.site else {
                return HTTPResponse(
                    status: 503, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"), ("Retry-After", "1")],
                    body: .bytes(placeholder))
            }
            return file(path, in: site, request: request)
        }
    }

    private func file(_ requested: String, in site: ServedSite, request: HTTPRequest) -> HTTPResponse {
        let mount = String(site.mount.dropFirst())
        guard requested.hasPrefix(mount) else {
            if requested + "/" == mount || requested.isEmpty { return redirect(to: URLPath.encoded(site.mount)) }
            return notFound(site)
        }
        let path = String(requested.dropFirst(mount.count))
        let isFolder = path.isEmpty || path.hasSuffix("/")
        let key = isFolder ? path + "index.html" : path
        if site.paths.contains(key) {
            return serve(key, from: site, request: request)
        }
        if !isFolder, site.folders.contains(path + "/") {
            return redirect(to: request.rawPath + "/")
        }
        return notFound(site)
    }

    private func serve(_ path: String, from site: ServedSite, request: HTTPRequest) -> HTTPResponse {
        let type = ContentType.of(path)
        var headers: [(name: String, value: String)] = [("Content-Type", type), ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff")]
        if type.hasPrefix("text/html") {
            // Lets the live-reload script learn which build it was served from (JS can read Server-Timing).
            headers.append(("Server-Timing", "glossary-build;desc=\"\(site.buildID)\""))
        }
        // Other sites read the term API and embed.js (README, "The term API").
        if path == "embed.js" || (path.hasPrefix("terms/") && path.hasSuffix(".json")) {
            headers.append(("Access-Control-Allow-Origin", "*"))
        }
        // The build's own folder holds every file as a regular file (copies included), written by this process.
        let real = site.folder.path + "/" + path
        let descriptor = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return notFound(site) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return notFound(site)
        }
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
        let etag =
            "\"\(String(UInt64(info.st_ino), radix: 36))-\(String(UInt64(info.st_size), radix: 36))-\(String(info.st_mtim.tv_sec, radix: 36)).\(info.st_mtim.tv_nsec)\""
        headers += [("ETag", etag), ("Last-Modified", HTTPDate.format(modified))]
        if Self.notModified(request, etag: etag, lastModified: modified) {
            close(descriptor)
            return HTTPResponse(status: 304, headers: headers.filter { $0.name != "Content-Type" })
        }
        return HTTPResponse(status: 200, headers: headers, body: .file(descriptor: descriptor, size: UInt64(info.st_size)))
    }

    /// `localhost`, `*.localhost`, `127.x.x.x` and `[::1]`, with or without a port.
    static func isLocal(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            name = String(name.prefix { $0 != "]" }) + "]"
        } else if let colon = name.lastIndex(of: ":") {
            name = String(name[..<colon])
        }
        if name == "localhost" || name.hasSuffix(".localhost") || name == "[::1]" { return true }
        var address = in_addr()
        return inet_pton(AF_INET, name, &address) == 1 && UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// RFC 9110 §13.2.2: If-None-Match decides when present; otherwise If-Modified-Since (one-second precision).
    static func notModified(_ request: HTTPRequest, etag: String, lastModified: Date) -> Bool {
        if let tags = request.header("If-None-Match") {
            return tags.split(separator: ",").contains { tag in
                let trimmed = tag.trimmingCharacters(in: .whitespaces)
                return trimmed == "*" || trimmed == etag || trimmed == "W/" + etag
            }
        }
        if let since = request.header("If-Modified-Since").flatMap(HTTPDate.parse) {
            return lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        }
        return false
    }

    private func redirect(to location: String) -> HTTPResponse {
        .plain(301, "Moved to \(location)\n", headers: [("Location", location), ("Cache-Control", "no-cache")])
    }

    /// The theme's 404 page, with status 404.
    private func notFound(_ site: ServedSite?) -> HTTPResponse {
        guard let page = site?.contents("404.html") else { return .plain(404, "Not found\n") }
        return HTTPResponse(status: 404, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")], body: .bytes(page))
    }

    private func eventStream(head: Bool) -> HTTPResponse {
        let headers: [(name: String, value: String)] = [
            ("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no"),
        ]
        guard !head else { return HTTPResponse(status: 200, headers: headers) }
        let snapshot = state.current
        return HTTPResponse(status: 200, headers: headers, body: .stream(events.subscribe(greeting: LiveReload.hello(snapshot))))
    }
}
