import Foundation
import TestSupport
import Testing

@testable import GlossaryKit

@Suite struct CacheEntryTests {
    /// Found by fuzzing (Fuzz/, cache-entry; crash-a6b4f8e… and crash-85741bb…, minimised): times the ICU formatter
    /// reads but doesn't write back the same (before the Gregorian calendar, where `timegm` counts days differently;
    /// a year of `21e9`) are no fetch time: the entry is corrupt, not read back as another.
    @Test(arguments: ["1-3-1T0:0:0Z", "21e9-3-1T0:0:0Z", "1969-12-31T23:59:59Z", "0001-03-01T00:00:00Z"])
    func aFetchTimeNoFetchCanHaveHadMakesTheEntryCorrupt(_ time: String) throws {
        let file = #"{"body":[{"word":""}],"fetched_at":"\#(time)","key":"k","status":200}"#
        #expect(throws: CacheEntry.Problem.wrongShape("'fetched_at' must be a time between 1970 and 9999")) {
            try CacheEntry.decode(Data(file.utf8))
        }
    }

    @Test func fetchTimesFrom1970To9999ReadBackAsWritten() throws {
        for time in ["1970-01-01T00:00:00Z", "2026-11-29T12:00:00Z", "9999-12-31T23:59:59Z", "2026-11-29T12:00:00+02:00"] {
            let file = #"{"body":[{"word":""}],"fetched_at":"\#(time)","key":"k","status":200}"#
            let entry = try CacheEntry.decode(Data(file.utf8))
            let written = entry.encoded()
            let reread = try CacheEntry.decode(written)
            #expect(reread == entry, "\(time): \(reread.fetchedAtText) read back")
            #expect(reread.encoded() == written)
        }
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

    /// A time is written by hand for the years 1583–9999, by the formatter otherwise: either way as the formatter writes
    /// it, to the second of the nearest millisecond, before 1970 too.
    @Test func theCachesOwnTimeFormIsWrittenByHandTheSameAsByTheFormatter() {
        let seed = UInt64(20_261_207)
        print("theCachesOwnTimeFormIsWrittenByHandTheSameAsByTheFormatter seed \(seed)")
        var random = SeededRandom(seed: seed)
        // From 1000 to 10,500: both sides of each bound.
        let (low, high) = (-30_610_224_000.0, 269_617_190_400.0)
        // Either side of a second, of 1583 and of 10,000, and no year at all.
        var times = [0, -0.25, 0.999, 0.9995, -0.0004, -0.0006, 1e10 + 0.9994, 1e10 + 0.9995]
        times += [-12_212_553_600, -12_212_553_601, 253_402_300_799.5, 253_402_300_800, .infinity, -1e300]
        times += (0..<20_000).map { _ in low + Double(random.next(1 << 40)) / Double(1 << 40) * (high - low) }
        for time in times {
            let date = Date(timeIntervalSince1970: time)
            #expect(CacheEntry.timestamp(date) == CacheEntry.timestampFormatter.string(from: date), "\(time) (seed \(seed))")
        }
    }
}
