import Foundation
import Testing

@testable import GlossaryKit

@Suite struct CacheEntryTests {
    /// Found by fuzzing (Fuzz/, cache-entry; crash-a6b4f8e…, minimised): a time before the Gregorian calendar
    /// was written by the ICU formatter and read back by `timegm`, which counts those days differently.
    @Test func anEarlyFetchTimeReadsBackAsWritten() throws {
        let file = #"{"body":[{"word":""}],"fetched_at":"1-3-1T0:0:0Z","key":"k","status":200}"#
        let entry = try CacheEntry.decode(Data(file.utf8))
        let written = entry.encoded()
        let reread = try CacheEntry.decode(written)
        #expect(reread.fetchedAt == entry.fetchedAt, "\(reread.fetchedAtText) read back, \(entry.fetchedAtText) written")
        #expect(reread == entry)
        #expect(reread.encoded() == written)
    }

    @Test func theCachesOwnTimeFormIsReadByHandTheSameAsByTheFormatter() throws {
        for text in ["2026-11-29T12:00:00Z", "1583-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z"] {
            let formatted = try #require(CacheEntry.timestampFormatter.date(from: text))
            #expect(CacheEntry.parseTimestamp(text) == formatted, "\(text)")
        }
        for early in ["1582-10-04T00:00:00Z", "0001-03-01T00:00:00Z"] {
            let formatted = try #require(CacheEntry.timestampFormatter.date(from: early))
            #expect(CacheEntry.parseTimestamp(early) == formatted, "\(early)")
        }
        #expect(CacheEntry.parseTimestamp("2026-02-30T00:00:00Z") == nil)
    }
}
