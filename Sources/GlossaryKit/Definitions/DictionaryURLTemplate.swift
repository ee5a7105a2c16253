import Foundation

/// The dictionary API's URL template, e.g. `https://api.dictionaryapi.dev/api/v2/entries/{lang}/{word}`.
///
/// `{word}` and `{lang}` are replaced by their values percent-encoded as UTF-8, every byte outside RFC 3986's
/// unreserved characters escaped: `ice cream` → `ice%20cream`, `don't` → `don%27t`, `café` → `caf%C3%A9`.
public struct DictionaryURLTemplate: Sendable, Equatable {
    public let template: String

    /// nil when the template has no `{word}` (every word would share one URL).
    public init?(_ template: String) {
        guard template.contains("{word}") else { return nil }
        self.template = template
    }

    public func url(for key: TermKey, language: String) -> String {
        template
            .replacingOccurrences(of: "{lang}", with: Self.percentEncoded(language))
            .replacingOccurrences(of: "{word}", with: Self.percentEncoded(key.rawValue))
    }

    /// The scheme and authority the requests go to (`https://api.dictionaryapi.dev`), for messages about the API
    /// as a whole.
    public var origin: String {
        guard let schemeEnd = template.range(of: "://") else { return host }
        return String(template[..<schemeEnd.upperBound]) + host
    }

    /// The authority alone: host and port (`api.dictionaryapi.dev`, `127.0.0.1:8080`).
    public var host: String {
        let afterScheme = template.range(of: "://").map { template[$0.upperBound...] } ?? template[...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // Credentials (`user:secret@host`) never appear in messages.
        return String(authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority)
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80 && unreserved.contains(scalar) {
                encoded.unicodeScalars.append(scalar)
            } else {
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }
}
