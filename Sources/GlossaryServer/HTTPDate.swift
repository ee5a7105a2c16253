import Foundation
import GlossaryKit

/// IMF-fixdate, the HTTP date format (`Sun, 06 Nov 1994 08:49:37 GMT`), with the C library (thread-safe, no locale).
enum HTTPDate {
    static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func parse(_ text: String) -> Date? {
        // `Sun, 06 Nov 1994 08:49:37 GMT`; the obsolete formats get no 304, just the full response.
        let words = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard words.count == 6, words[5] == "GMT", let day = Int32(words[1]), let month = months.firstIndex(of: String(words[2])),
            let year = Int32(words[3])
        else { return nil }
        let clock = words[4].split(separator: ":").compactMap { Int32($0) }
        guard clock.count == 3 else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        parts.tm_hour = clock[0]
        parts.tm_min = clock[1]
        parts.tm_sec = clock[2]
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
