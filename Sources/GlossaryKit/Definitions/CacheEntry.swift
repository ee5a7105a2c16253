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
        try decodeBody(parse(body), status: status)
    }

    static func decodeBody(_ json: JSONValue, status: Int) throws(Problem) -> [DictionaryEntry] {
        if status == 404 {
            guard json.isObject else { throw .wrongShape("a 404 body should be an object") }
            return []
        }
        return try DictionaryEntry.entries(from: json)
    }

    static func parse(_ bytes: Data) throws(Problem) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw .notJSON(error.description)
        }
    }

    /// The body as canonical compact JSON (sorted keys), as entries hold it.
    static func canonical(_ json: JSONValue) -> Data {
        Data(JSONWriter.text(json, pretty: false).utf8)
    }

    /// The file's bytes: a small JSON envelope holding the body, stable and diff-friendly (keys sorted, two
    /// spaces of indentation).
    public func encoded() -> Data {
        let bodyValue = (try? JSONParser.parse(body)) ?? .null
        var members: [(key: String, value: JSONValue)] = [
            ("format", .number(String(Self.currentFormat))),
            ("key", .string(key.rawValue)),
            ("language", .string(language)),
            ("url", .string(url)),
            ("status", .number(String(status))),
            ("fetched_at", .string(Self.timestampFormatter.string(from: fetchedAt))),
            ("body", bodyValue),
        ]
        if let sampleNote { members.append(("sample", .string(sampleNote))) }
        return Data((JSONWriter.text(.object(members), pretty: true) + "\n").utf8)
    }

    /// Reads a cache file's bytes, or says precisely what is wrong with them.
    public static func decode(_ data: Data) throws(Problem) -> CacheEntry {
        let envelope: JSONValue
        do {
            envelope = try JSONParser.parse(data)
        } catch {
            throw .notJSON("truncated or corrupt file")
        }
        guard envelope.isObject else { throw .wrongShape("expected an object") }
        guard let keyText = envelope["key"]?.stringValue, let key = TermKey(keyText) else { throw .wrongShape("missing 'key'") }
        guard let status = envelope["status"]?.intValue, status == 200 || status == 404 else {
            throw .wrongShape("'status' must be 200 or 404")
        }
        guard let fetchedText = envelope["fetched_at"]?.stringValue, let fetchedAt = timestampFormatter.date(from: fetchedText) else {
            throw .wrongShape("'fetched_at' must be an ISO 8601 time")
        }
        guard let body = envelope["body"] else { throw .wrongShape("missing 'body'") }
        let entries = try decodeBody(body, status: status)
        return CacheEntry(
            key: key, language: envelope["language"]?.stringValue ?? "en", url: envelope["url"]?.stringValue ?? "",
            status: status, fetchedAt: fetchedAt, entries: entries, body: canonical(body), sampleNote: envelope["sample"]?.stringValue)
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
