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
    /// The body as received, as JSON values: written back canonically (sorted keys), so a rewrite changes nothing.
    public var bodyJSON: JSONValue { didSet { bodyFingerprint = Self.fingerprint(of: bodyJSON) } }
    /// The fingerprint of `bodyJSON`, for the outputs showing the entry: computed once per entry read, not once
    /// per output and build (a preview rebuild plans every term page and export).
    public private(set) var bodyFingerprint: Fingerprint

    /// The body as canonical compact JSON.
    public var body: Data { Self.canonical(bodyJSON) }
    /// Set on hand-written entries shipped with an example site.
    public var sampleNote: String?

    public var isNotFound: Bool { status == 404 }

    /// `fetchedAt` as the file writes it: `2026-11-29T12:00:00Z`.
    public var fetchedAtText: String { Self.timestamp(fetchedAt) }

    public init(key: TermKey, language: String, url: String, status: Int, fetchedAt: Date, entries: [DictionaryEntry], body: Data, sampleNote: String? = nil) {
        self.init(
            key: key, language: language, url: url, status: status, fetchedAt: fetchedAt, entries: entries,
            bodyJSON: (try? JSONParser.parse(body)) ?? .null, sampleNote: sampleNote)
    }

    public init(
        key: TermKey, language: String, url: String, status: Int, fetchedAt: Date, entries: [DictionaryEntry], bodyJSON: JSONValue,
        sampleNote: String? = nil
    ) {
        self.key = key
        self.language = language
        self.url = url
        self.status = status
        self.fetchedAt = fetchedAt
        self.entries = entries
        self.bodyJSON = bodyJSON.canonical
        bodyFingerprint = Self.fingerprint(of: self.bodyJSON)
        self.sampleNote = sampleNote
    }

    static func fingerprint(of body: JSONValue) -> Fingerprint {
        var hasher = FingerprintHasher()
        body.fingerprint(into: &hasher)
        return hasher.finish()
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
        let bodyValue = bodyJSON
        var members: [(key: String, value: JSONValue)] = [
            ("format", .number(String(Self.currentFormat))),
            ("key", .string(key.rawValue)),
            ("language", .string(language)),
            ("url", .string(url)),
            ("status", .number(String(status))),
            ("fetched_at", .string(Self.timestamp(fetchedAt))),
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
        guard let fetchedText = envelope["fetched_at"]?.stringValue, let fetchedAt = parseTimestamp(fetchedText) else {
            throw .wrongShape("'fetched_at' must be an ISO 8601 time")
        }
        // The formatter reads years it can't write back the same (`21e9-3-1T0:0:0Z`, found by fuzzing): a time no
        // fetch can have had is no use anyway.
        guard Self.plausibleFetchTimes.contains(fetchedAt.timeIntervalSince1970) else {
            throw .wrongShape("'fetched_at' must be a time between 1970 and 9999")
        }
        guard let body = envelope["body"] else { throw .wrongShape("missing 'body'") }
        let entries = try decodeBody(body, status: status)
        return CacheEntry(
            key: key, language: envelope["language"]?.stringValue ?? "en", url: envelope["url"]?.stringValue ?? "",
            status: status, fetchedAt: fetchedAt, entries: entries, bodyJSON: body, sampleNote: envelope["sample"]?.stringValue)
    }

    /// 1970-01-01 to the end of 9999, in seconds since 1970.
    static let plausibleFetchTimes: ClosedRange<TimeInterval> = 0...253_402_300_799

    /// `2026-11-29T12:00:00Z`, the form the cache writes, read by hand (an ICU formatter costs more than the
    /// rest of reading an entry); any other ISO 8601 form, and any year before 1583, through the formatter.
    ///
    /// `timegm` counts days in the Gregorian calendar all the way back, ICU in the Julian one before October
    /// 1582: the formatter writes the time back, so only the formatter may read an early one (the fuzzer found
    /// `1-3-1T0:0:0Z` read back two days off).
    static func parseTimestamp(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        if bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x5A {
            func number(_ range: Range<Int>) -> Int32? {
                var value: Int32 = 0
                for byte in bytes[range] {
                    guard (0x30...0x39).contains(byte) else { return nil }
                    value = value * 10 + Int32(byte - 0x30)
                }
                return value
            }
            if let year = number(0..<4), year > 1582, let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
                let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day), hour < 24,
                minute < 60, second <= 60
            {
                var parts = tm()
                parts.tm_year = year - 1900
                parts.tm_mon = month - 1
                parts.tm_mday = day
                parts.tm_hour = hour
                parts.tm_min = minute
                parts.tm_sec = second
                let seconds = timegm(&parts)
                // timegm normalises impossible dates (February 30th): only a date that round-trips is one.
                var back = tm()
                var value = seconds
                gmtime_r(&value, &back)
                if back.tm_mday == day && back.tm_mon == month - 1 { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
                return nil
            }
        }
        return timestampFormatter.date(from: text)
    }

    /// `date` as the file writes it (`2026-11-29T12:00:00Z`: UTC, the second of the nearest millisecond, as the
    /// formatter counts). Written here for the years 1583–9999, where C's calendar and ICU's agree (a term page shows
    /// the day each cached definition was fetched, and asking a thread's formatter costs more than making the page's
    /// other text); by the formatter for other years.
    static func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 1e12 else { return timestampFormatter.string(from: date) }
        var seconds = time_t(((interval * 1000).rounded() / 1000).rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil, (1583...9999).contains(parts.tm_year + 1900) else {
            return timestampFormatter.string(from: date)
        }
        func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : String(number) }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
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
