import Foundation

/// One cached API answer: the response body as received (stored as JSON, pretty-printed for diffs), its
/// HTTP status (200, or 404 for a word the API doesn't know), when and from where it was fetched.
public struct CacheEntry: Equatable, Sendable {
    public static let currentFormat = 1

    public var key: TermKey
    public var language: String
    public var url: String
    public var status: Int
    public var fetchedAt: Date
    /// The decoded entries of a 200; empty for a 404.
    public var entries: [DictionaryEntry]
    /// The body as received, re-serialised as canonical JSON (sorted keys), so a rewrite changes nothing.
    public var body: Data
    /// Set on hand-written entries shipped with an example site.
    public var sampleNote: String?

    public var isNotFound: Bool { status == 404 }

    public init(key: TermKey, language: String, url: String, status: Int, fetchedAt: Date, entries: [DictionaryEntry], body: Data, sampleNote: String? = nil) {
        self.key = key
        self.language = language
        self.url = url
        self.status = status
        self.fetchedAt = fetchedAt
        self.entries = entries
        self.body = body
        self.sampleNote = sampleNote
    }

    /// Why bytes are not a usable cache entry or API body.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        case notJSON(String)
        case wrongShape(String)

        public var description: String { GlossaryKit.Problem.describe(self) }
    }

    /// Decodes an API response body for `status`: a 200 must be a non-empty array of entries, a 404 an object.
    public static func decodeBody(_ body: Data, status: Int) throws(Problem) -> [DictionaryEntry] {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        } catch {
            throw .notJSON(String(describing: error.localizedDescription))
        }
        if status == 404 {
            guard json is [String: Any] else { throw .wrongShape("a 404 body should be an object") }
            return []
        }
        guard let array = json as? [Any], !array.isEmpty else { throw .wrongShape("expected a non-empty array of entries") }
        do {
            return try JSONDecoder().decode([DictionaryEntry].self, from: body)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .wrongShape("missing '\(key.stringValue)' at \(Self.path(context.codingPath))")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .wrongShape("wrong type at \(Self.path(context.codingPath + []))")
        } catch {
            throw .wrongShape(String(describing: error))
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        let path = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "top level" : path
    }

    /// The file's bytes: a small JSON envelope holding the body, stable and diff-friendly.
    public func encoded() -> Data {
        let bodyObject = (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) ?? NSNull()
        var envelope: [String: Any] = [
            "format": Self.currentFormat,
            "key": key.rawValue,
            "language": language,
            "url": url,
            "status": status,
            "fetched_at": Self.timestampFormatter.string(from: fetchedAt),
            "body": bodyObject,
        ]
        if let sampleNote { envelope["sample"] = sampleNote }
        var data = (try? JSONSerialization.data(withJSONObject: envelope, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Reads a cache file's bytes, or says precisely what is wrong with them.
    public static func decode(_ data: Data) throws(Problem) -> CacheEntry {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .notJSON("truncated or corrupt file")
        }
        guard let envelope = json as? [String: Any] else { throw .wrongShape("expected an object") }
        guard let keyText = envelope["key"] as? String, let key = TermKey(keyText) else { throw .wrongShape("missing 'key'") }
        guard let status = (envelope["status"] as? NSNumber)?.intValue, status == 200 || status == 404 else {
            throw .wrongShape("'status' must be 200 or 404")
        }
        guard let fetchedText = envelope["fetched_at"] as? String, let fetchedAt = timestampFormatter.date(from: fetchedText) else {
            throw .wrongShape("'fetched_at' must be an ISO 8601 time")
        }
        guard let bodyObject = envelope["body"] else { throw .wrongShape("missing 'body'") }
        let body: Data
        do {
            body = try JSONSerialization.data(withJSONObject: bodyObject, options: [.sortedKeys, .fragmentsAllowed])
        } catch {
            throw .wrongShape("unreadable 'body'")
        }
        let entries = try decodeBody(body, status: status)
        return CacheEntry(
            key: key, language: envelope["language"] as? String ?? "en", url: envelope["url"] as? String ?? "",
            status: status, fetchedAt: fetchedAt, entries: entries, body: body, sampleNote: envelope["sample"] as? String)
    }

    /// One formatter per thread: creating one (an ICU formatter) costs far more than using it, and a
    /// formatter must not be shared between threads.
    static var timestampFormatter: ISO8601DateFormatter {
        let key = "glossary.CacheEntry.timestampFormatter"
        if let formatter = Thread.current.threadDictionary[key] as? ISO8601DateFormatter { return formatter }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        Thread.current.threadDictionary[key] = formatter
        return formatter
    }
}
