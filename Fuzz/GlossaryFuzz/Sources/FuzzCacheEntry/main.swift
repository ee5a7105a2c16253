import Foundation
import FuzzSupport
import GlossaryKit

// A definitions cache file: CacheEntry.decode on the strict JSON parser; whatever decodes is written back
// (encoded()) and must read back as the same entry, and write again byte for byte the same.

Fuzzer.run { bytes in
    let data = Data(bytes)
    let entry: CacheEntry
    do throws(CacheEntry.Problem) {
        entry = try CacheEntry.decode(data)
    } catch {
        Fuzzer.expect(!error.description.isEmpty, "a problem without a description")
        Checks.wellFormed(Diagnostic(.cacheCorrupt(key: nil, problem: error, then: nil), at: .start(of: "cache/en/x.json")), file: "cache/en/x.json", lines: 1)
        return
    }
    Fuzzer.expect(entry.status == 200 || entry.status == 404, "status \(entry.status)")
    Fuzzer.expect(entry.isNotFound == entry.entries.isEmpty, "a \(entry.status) with \(entry.entries.count) entries")
    let written = entry.encoded()
    let reread: CacheEntry
    do throws(CacheEntry.Problem) {
        reread = try CacheEntry.decode(written)
    } catch {
        Fuzzer.expect(false, "the written entry does not read back: \(error)\n\(String(decoding: written, as: UTF8.self))")
        return
    }
    Fuzzer.expect(reread == entry, "the entry read back differs")
    Fuzzer.expect(reread.encoded() == written, "writing the entry again changes bytes")
    Fuzzer.expect((try? CacheEntry.decodeBody(entry.body, status: entry.status)) == entry.entries, "the stored body decodes to other entries")
}
