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

    public static let script = """
        (() => {
          "use strict";
          const scrollKey = "glossary-scroll:" + location.pathname;
          try {
            const saved = JSON.parse(sessionStorage.getItem(scrollKey) || "null");
            if (saved) {
              sessionStorage.removeItem(scrollKey);
              const restore = () => window.scrollTo(saved.x, saved.y);
              restore();
              addEventListener("load", restore, { once: true });
            }
          } catch (_) {}
          const navigation = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
          const timing = navigation && navigation.serverTiming ? navigation.serverTiming.find((t) => t.name === "glossary-build") : null;
          let pageBuild = timing ? timing.description : null;
          const here = (() => {
            let path = location.pathname;
            try { path = decodeURIComponent(path); } catch (_) {}
            return path.endsWith("/index.html") ? path.slice(0, -"index.html".length) : path;
          })();
          function reload() {
            try { sessionStorage.setItem(scrollKey, JSON.stringify({ x: scrollX, y: scrollY })); } catch (_) {}
            location.reload();
          }
          function swapStylesheets(paths) {
            for (const link of document.querySelectorAll('link[rel~="stylesheet"]')) {
              const url = new URL(link.href, location.href);
              if (url.origin !== location.origin || !paths.includes(decodeURIComponent(url.pathname))) continue;
              url.searchParams.set("glossary-reload", Date.now());
              const fresh = link.cloneNode();
              fresh.href = url.href;
              const done = () => link.remove();
              fresh.addEventListener("load", done, { once: true });
              fresh.addEventListener("error", done, { once: true });
              link.after(fresh);
            }
          }
          function showErrors(errors) {
            let box = document.getElementById("glossary-build-errors");
            if (!errors || errors.length === 0) {
              if (box) box.remove();
              return;
            }
            if (!box) {
              box = document.createElement("div");
              box.id = "glossary-build-errors";
              box.setAttribute("role", "alert");
              box.setAttribute("data-glossary-overlay", "");
              // Styled property by property through CSSOM: the pages' Content-Security-Policy refuses style attributes.
              Object.assign(box.style, {
                position: "fixed", left: "0", right: "0", bottom: "0", maxHeight: "60vh", overflow: "auto", zIndex: "2147483647",
                margin: "0", padding: "1rem 1.25rem", background: "#2b0d0d", color: "#ffe9e9", borderTop: "4px solid #e5484d",
                font: "14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace", boxShadow: "0 -4px 24px rgba(0,0,0,.4)",
              });
              document.body.appendChild(box);
            }
            box.textContent = "";
            const title = document.createElement("strong");
            title.textContent = "Build failed \\u2014 this is the last good build. Fix the problem and save to reload.";
            const close = document.createElement("button");
            close.type = "button";
            close.textContent = "\\u00d7";
            close.setAttribute("aria-label", "Hide build errors");
            Object.assign(close.style, {
              float: "right", background: "none", border: "0", color: "inherit", fontSize: "20px", lineHeight: "1", cursor: "pointer",
            });
            close.addEventListener("click", () => box.remove());
            const list = document.createElement("ul");
            Object.assign(list.style, { margin: ".5rem 0 0", paddingLeft: "1.25rem", whiteSpace: "pre-wrap" });
            for (const error of errors) {
              const item = document.createElement("li");
              item.textContent = error.text;
              list.appendChild(item);
            }
            box.append(close, title, list);
          }
          let source = null;
          let retry = null;
          function connect() {
            if (source) source.close();
            source = new EventSource("/_glossary/events");
            source.addEventListener("hello", (event) => {
              const data = JSON.parse(event.data);
              showErrors(data.errors);
              if (!data.build) return;
              if (pageBuild === null) pageBuild = data.build;
              else if (pageBuild !== data.build) reload();
            });
            source.addEventListener("build", (event) => {
              const data = JSON.parse(event.data);
              showErrors(null);
              pageBuild = data.build;
              if (data.css_only) return swapStylesheets(data.changed);
              const affects = data.all || data.changed.some((path) => path === here || !(path.endsWith("/") || path.endsWith(".html")));
              if (affects || (data.changed.some((path) => path.endsWith("/404.html")))) reload();
            });
            source.addEventListener("failed", (event) => showErrors(JSON.parse(event.data).errors));
            source.onerror = () => {
              // The browser retries by itself while the server is unreachable; once it gives up, try again.
              if (source.readyState === EventSource.CLOSED) {
                clearTimeout(retry);
                retry = setTimeout(connect, 1000);
              }
            };
          }
          connect();
        })();

        """

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
                "severity": diagnostic.severity.rawValue, "code": diagnostic.code, "message": diagnostic.message, "text": diagnostic.description,
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
