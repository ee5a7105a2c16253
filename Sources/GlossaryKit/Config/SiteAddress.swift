import Foundation

/// Where a site is served from: the scheme, host and port of its address (`https://example.org`,
/// `http://127.0.0.1:8080`), without a path. With it every exported URL (the glossary exports, the sitemap,
/// canonical links, structured data) is absolute: the origin, then the site's root path from `base_url`.
public struct SiteAddress: Sendable, Equatable, CustomStringConvertible {
    /// `https://example.org`: lowercase scheme and host, the port only when given, no trailing `/`.
    public let origin: String

    /// The origin of `text` when it is an http or https URL with a host and nothing after it but an optional
    /// `/`; nil otherwise (a path, query, fragment, user name, or anything that is not a URL).
    public init?(_ text: String) {
        guard let origin = Self.origin(of: text) else { return nil }
        self.origin = origin
    }

    /// The origin of a full URL in `base_url` (`https://example.org/docs/` → `https://example.org`); nil for a
    /// path (`/docs/`).
    public init?(baseURL: String) {
        // Only the scheme and host matter here; the path (any characters) is base_url's business.
        guard let separator = baseURL.range(of: "://") else { return nil }
        let authority = baseURL[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let origin = Self.origin(of: String(baseURL[..<separator.upperBound] + authority)) else { return nil }
        self.origin = origin
    }

    public var description: String { origin }

    private static func origin(of text: String) -> String? {
        // Only printable ASCII: what URLComponents leaves alone and what may go into HTML, XML and robots.txt.
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
            let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.percentEncodedHost, !host.isEmpty,
            components.user == nil, components.password == nil, components.query == nil, components.fragment == nil
        else { return nil }
        guard components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/" else { return nil }
        guard host.unicodeScalars.allSatisfy({ isHostScalar($0) }) else { return nil }
        let port = components.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host.lowercased())\(port)"
    }

    /// Letters, digits, `-`, `.`, and the brackets and colons of an IPv6 literal.
    private static func isHostScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "[", "]", ":": true
        default: false
        }
    }
}
