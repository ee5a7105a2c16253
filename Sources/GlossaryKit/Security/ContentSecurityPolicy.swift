import Foundation
import Synchronization

/// The Content-Security-Policy of every emitted page, written by themes as
/// `<meta http-equiv="Content-Security-Policy" content="{{csp}}">` (a static site has no headers to set).
///
/// Scripts run only from the site itself plus the inline scripts allowed by their SHA-256 hash; scripts
/// connect only to the site and, with live lookup on, the dictionary API; recordings and images may come
/// from the site or any https: host (the API links to Wikimedia's); nothing else loads.
public struct ContentSecurityPolicy: Sendable, Equatable {
    /// `'sha256-…'` sources, one per distinct inline script, in document order.
    public var scriptHashes: [String]
    /// Where scripts may connect besides the site itself (the dictionary API's origin, for live lookups).
    public var connectSources: [String]

    public init(inlineScripts: [String], connectSources: [String]) {
        scriptHashes = inlineScripts.map { "'sha256-\(SHA256.base64($0))'" }.uniqued()
        self.connectSources = connectSources.uniqued()
    }

    /// The policy for pages of `config`'s site whose only inline scripts are those in `html`.
    public init(config: SiteConfig, inlineScriptsIn html: String) {
        let api = config.dictionary.liveLookup ? Self.source(ofURLTemplate: config.dictionary.api) : nil
        self.init(inlineScripts: Self.inlineScripts(in: html), connectSources: api.map { [$0] } ?? [])
    }

    /// The policy as the `content` of its meta element.
    public var text: String {
        [
            "default-src 'none'",
            (["script-src 'self'"] + scriptHashes).joined(separator: " "),
            "style-src 'self'",
            "img-src 'self' https: data:",  // data: for the theme's inline SVG icons (the select arrow, the favicon)
            "media-src 'self' https:",
            (["connect-src 'self'"] + connectSources).joined(separator: " "),
            "font-src 'self'",
            "form-action 'self'",
            "base-uri 'self'",
            "object-src 'none'",
        ].joined(separator: "; ")
    }

    /// The text of each inline script (a `<script>` without `src`) in `html`, as the browser hashes it: HTML
    /// parsing turns CRLF and CR into LF before the script sees its text. JSON data blocks (`type=
    /// "application/ld+json"`) are left out: the browser never runs them, so CSP never asks about them.
    static func inlineScripts(in html: String) -> [String] {
        let scalars = Array(html.unicodeScalars)
        var scripts: [String] = []
        var index = 0
        while let open = find("<script", in: scalars, from: index) {
            let afterName = open + "<script".count
            guard afterName < scalars.count, " \t\n\r\u{0C}/>".unicodeScalars.contains(scalars[afterName]) else {
                index = afterName
                continue
            }
            let (attributes, bodyStart) = startTagAttributes(scalars, from: afterName)
            let bodyEnd = find("</script", in: scalars, from: bodyStart) ?? scalars.count
            if attributes["src"] == nil && !isJSONDataBlock(type: attributes["type"]) {
                scripts.append(withNewlinesNormalized(scalars[bodyStart..<bodyEnd]))
            }
            index = bodyEnd
        }
        return scripts
    }

    /// The text with CRLF and lone CR as LF, as the HTML parser's input stream has them.
    private static func withNewlinesNormalized(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in scalars {
            if scalar == "\r" {
                text.append("\n")
            } else if scalar != "\n" || previous != "\r" {
                text.append(scalar)
            }
            previous = scalar
        }
        return String(text)
    }

    /// Whether a script's `type` makes it a JSON data block: a MIME type ending in `json` (`application/ld+json`).
    /// Only such types are left unhashed; any other (`module`, `importmap`, unknown ones) keeps its hash, which
    /// costs nothing if the browser doesn't run it.
    static func isJSONDataBlock(type: String?) -> Bool {
        guard let type else { return false }
        let essence = type.lowercased().prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        return essence.contains("/") && essence.hasSuffix("json")
    }

    /// The attributes (lowercased names, values as written) of the start tag from `start` (just after its name),
    /// and where it ends.
    private static func startTagAttributes(_ scalars: [Unicode.Scalar], from start: Int) -> ([String: String], Int) {
        var names: [String: String] = [:]
        var index = start
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { " \t\n\r\u{0C}/".unicodeScalars.contains(scalar) }
        while index < scalars.count, scalars[index] != ">" {
            if isSpace(scalars[index]) {
                index += 1
                continue
            }
            var name = ""
            while index < scalars.count, !isSpace(scalars[index]), scalars[index] != "=", scalars[index] != ">" {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            let key = name.lowercased()
            guard index < scalars.count, scalars[index] == "=" else {
                if names[key] == nil { names[key] = "" }
                continue
            }
            index += 1
            var value = ""
            if index < scalars.count, scalars[index] == "\"" || scalars[index] == "'" {
                let quote = scalars[index]
                index += 1
                while index < scalars.count, scalars[index] != quote {
                    value.unicodeScalars.append(scalars[index])
                    index += 1
                }
                index += 1
            } else {
                while index < scalars.count, !isSpace(scalars[index]), scalars[index] != ">" {
                    value.unicodeScalars.append(scalars[index])
                    index += 1
                }
            }
            // The first of a repeated attribute is the one HTML keeps.
            if names[key] == nil { names[key] = value }
        }
        return (names, min(index + 1, scalars.count))
    }

    /// Where `needle` (lowercase ASCII) next occurs in `scalars` from `start`, ignoring ASCII case.
    private static func find(_ needle: String, in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        let pattern = Array(needle.unicodeScalars)
        guard scalars.count >= pattern.count, start <= scalars.count - pattern.count else { return nil }
        for candidate in start...(scalars.count - pattern.count) {
            var matches = true
            for (offset, expected) in pattern.enumerated() {
                let scalar = scalars[candidate + offset]
                let lowered = ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
                if lowered != expected {
                    matches = false
                    break
                }
            }
            if matches { return candidate }
        }
        return nil
    }

    /// The CSP source for the origin of a URL template like `https://api.example.org:8443/v2/{lang}/{word}`:
    /// `https://api.example.org:8443`; the scheme alone (`https:`) when the host is not a plain DNS name or
    /// IPv4 address (an IPv6 literal, a placeholder); nil when the scheme is not http or https.
    ///
    /// Only letters, digits, `.`, `-` and `:` reach the policy, so a configured URL cannot add directives.
    static func source(ofURLTemplate template: String) -> String? {
        guard let separator = template.range(of: "://") else { return nil }
        let scheme = template[..<separator.lowerBound].lowercased()
        guard scheme == "https" || scheme == "http" else { return nil }
        var authority = template[separator.upperBound...].prefix { !"/?#".contains($0) }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = Substring(authority)
        var port = ""
        if let colon = authority.lastIndex(of: ":") {
            let digits = authority[authority.index(after: colon)...]
            if digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                host = authority[..<colon]
                port = digits.isEmpty ? "" : ":" + digits
            }
        }
        let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy(isPlainLabel) ? "\(scheme)://\(labels.joined(separator: "."))\(port)" : "\(scheme):"
    }

    private static func isPlainLabel(_ label: Substring) -> Bool {
        !label.isEmpty && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
}

extension ContentSecurityPolicy {
    /// Policies already written for one site, by the HTML holding their inline scripts: most sites' pages
    /// share one, so a build hashes it once rather than once a page.
    final class Memo: Sendable {
        private let texts = Mutex<[String: String]>([:])

        /// The text of the policy for `config`'s pages whose only inline scripts are those in `html`.
        func text(config: SiteConfig, inlineScriptsIn html: String) -> String {
            texts.withLock { texts in
                if let text = texts[html] { return text }
                let text = ContentSecurityPolicy(config: config, inlineScriptsIn: html).text
                texts[html] = text
                return text
            }
        }
    }
}
