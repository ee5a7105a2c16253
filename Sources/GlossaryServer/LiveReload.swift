import Foundation
import GlossaryKit

/// The browser side of live reload: the script every page loads while serving (its tag is injected before
/// `</body>` — never by `glossary build`), and the events it receives on `/_glossary/events`.
///
/// Events (`data:` is one JSON object):
/// - `hello`, on connecting: `{"build": ID or null, "errors": [...]}` — the script reloads when the page came
///   from another build (the server restarted, or a build finished while the page loaded) and shows the
///   errors of a failed build;
/// - `build`, after a successful build is in place: `{"build": ID, "changed": [URL paths], "all": Bool,
///   "css_only": Bool}` — stylesheets are swapped when only CSS changed, otherwise the page reloads if it or
///   anything it loads (scripts, images, the terms JSON) changed, keeping the scroll position;
/// - `failed`: `{"errors": [{"file", "line", "column", "severity", "code", "message", "text"}]}` — shown
///   as an overlay over the last good page until the next good build.
public enum LiveReload {
    /// At most this many changed paths are listed; more sends `"all": true`.
    static let changedListLimit = 500

    public static let scriptPath = "/_glossary/live-reload.js"

    /// What goes before `</body>` of every served page: small, and the same for every build, so serving
    /// changes no page's bytes beyond it.
    public static let tag = "<script src=\"\(scriptPath)\" data-glossary-live-reload></script>\n"

    /// The script's text: `Embedded/live-reload.js`, built into the binary by the EmbedFiles plugin.
    public static let script = String(decoding: EmbeddedFiles.liveReloadScript, as: UTF8.self)

    /// A validator for the script: it changes only with the program.
    static let scriptETag = "\"lr-\(String(UInt64(bitPattern: Int64(script.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) })), radix: 36))\""

    /// The page served for every path until a build succeeds: the live-reload script shows why. Its policy
    /// allows that script and its connection, as the theme's policy does on built pages.
    public static let placeholderPage = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'">
        <title>Build failed · glossary serve</title></head>
        <body><p>The site has not been built yet: the build failed. The errors are shown below and in the terminal;
        this page reloads when the build succeeds.</p>
        \(tag)</body></html>

        """

    static func hello(_ snapshot: PreviewState.Snapshot) -> String {
        EventHub.format("hello", json(["build": snapshot.site?.buildID ?? NSNull(), "errors": errors(snapshot.errors)]))
    }

    static func build(id: String, changed: Set<String>, mount: String) -> String {
        let urls = changed.map { path in mount + (path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path) }.sorted()
        let cssOnly = !changed.isEmpty && changed.allSatisfy { $0.hasSuffix(".css") }
        let all = urls.count > changedListLimit
        return json(["build": id, "changed": all ? [] : urls, "all": all, "css_only": cssOnly && !all])
    }

    static func failed(_ diagnostics: [Diagnostic]) -> String {
        json(["errors": errors(diagnostics)])
    }

    static func errors(_ diagnostics: [Diagnostic]) -> [[String: Any]] {
        diagnostics.map { diagnostic in
            var item: [String: Any] = [
                "severity": diagnostic.severity.rawValue, "code": diagnostic.code.rawValue, "message": diagnostic.message, "text": diagnostic.description,
            ]
            if let location = diagnostic.location {
                item["file"] = location.file
                item["line"] = location.line
                item["column"] = location.column
            }
            return item
        }
    }

    static func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
