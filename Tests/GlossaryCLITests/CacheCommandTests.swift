import Foundation
import GlossaryKit
import Testing

/// `glossary cache list|verify|prune`, run as the real binary on small inline sites.
@Suite struct CacheCommandTests {
    static func entry(_ word: String, status: Int = 200, fetched: String = "2026-11-01T10:00:00Z", language: String = "en") -> String {
        let body = status == 200 ? #"[{"word": "\#(word)", "meanings": []}]"# : #"{"title": "No Definitions Found"}"#
        return """
            {"format": 1, "key": "\(word)", "language": "\(language)", "url": "https://api.dictionaryapi.dev/api/v2/entries/\(language)/\(word)",
             "status": \(status), "fetched_at": "\(fetched)", "body": \(body)}
            """
    }

    static let site = """
        -- glossary.yml --
        title: Cached
        dictionary:
          max_age_days: 36500
        -- content/index.md --
        [[Ink]], [[quill]] and [[zzqx]].
        -- content/draft.md --
        ---
        draft: true
        ---
        A draft still keeps [[margin]].
        -- content/glossary/kerning.md --
        ---
        term: kerning
        see_also: [serif]
        ---
        Our own.
        -- .glossary/cache/en/ink.json --
        \(entry("ink"))
        -- .glossary/cache/en/quill.json --
        \(entry("quill", fetched: "1990-01-01T00:00:00Z"))
        -- .glossary/cache/en/zzqx.json --
        \(entry("zzqx", status: 404))
        -- .glossary/cache/en/margin.json --
        \(entry("margin"))
        -- .glossary/cache/en/serif.json --
        \(entry("serif"))
        -- .glossary/cache/en/kerning.json --
        \(entry("kerning"))
        -- .glossary/cache/en/orphan.json --
        \(entry("orphan"))
        -- .glossary/cache/de/tinte.json --
        \(entry("tinte", language: "de"))
        """

    @Test func listsEveryEntryWithStatusDateAndAge() async throws {
        let site = try TestSite(Self.site.replacingOccurrences(of: "max_age_days: 36500", with: "max_age_days: 365000"))
        defer { site.remove() }
        try site.write(".glossary/cache/en/broken.json", "{\"format\": 1,")

        let result = try await site.run(["cache", "list"])

        #expect(result.status == 0)
        #expect(
            result.stdout == """
                TERM     LANG  STATUS     FETCHED     AGE
                tinte    de    found      2026-11-01  fresh
                broken   en    corrupt    -           -
                ink      en    found      2026-11-01  fresh
                kerning  en    found      2026-11-01  fresh
                margin   en    found      2026-11-01  fresh
                orphan   en    found      2026-11-01  fresh
                quill    en    found      1990-01-01  fresh
                serif    en    found      2026-11-01  fresh
                zzqx     en    not found  2026-11-01  fresh

                """)
        #expect(result.stderr == "9 entries: 7 found, 1 not found, 0 stale, 1 corrupt (see 'glossary cache verify')\n")
    }

    @Test func listMarksEntriesOlderThanMaxAgeStale() async throws {
        let site = try TestSite(Self.site.replacingOccurrences(of: "max_age_days: 36500", with: "max_age_days: 1"))
        defer { site.remove() }

        let result = try await site.run(["cache", "list"])

        #expect(result.stdout.split(separator: "\n").filter { $0.hasSuffix("stale") }.count == 8)
        #expect(result.stderr == "8 entries: 7 found, 1 not found, 8 stale\n")
    }

    @Test func anEmptyCacheSaysSo() async throws {
        let site = try TestSite("-- content/index.md --\nHi.\n")
        defer { site.remove() }
        let result = try await site.run(["cache", "list"])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "The cache (.glossary/cache/) is empty\n")
    }

    @Test func verifyPassesAHealthyCache() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let result = try await site.run(["cache", "verify"])
        #expect(result.status == 0)
        #expect(result.stderr == "Verified 8 entries in .glossary/cache/: all readable\n")
    }

    @Test func verifyReportsEveryDamagedEntryAndFails() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        try site.write(".glossary/cache/en/ink.json", String(Self.entry("ink").prefix(40)))
        try site.write(".glossary/cache/en/quill.json", Self.entry("quill").replacingOccurrences(of: "\"status\": 200", with: "\"status\": 500"))
        try site.write(".glossary/cache/en/serif.json", Self.entry("sans"))
        try site.write(".glossary/cache/en/.ink.4242.17.tmp", "{")

        let result = try await site.run(["cache", "verify"])

        #expect(result.status == 1)
        #expect(
            result.stderr == """
                .glossary/cache/en/ink.json:1:1: error: cache entry is not valid JSON (truncated or corrupt file) [cache-corrupt]
                .glossary/cache/en/quill.json:1:1: error: cache entry does not have the expected shape ('status' must be 200 or 404) [cache-corrupt]
                .glossary/cache/en/serif.json:1:1: error: cache entry holds 'sans' in 'en', which belongs in en/sans.json [cache-corrupt]
                .glossary/cache/en/.ink.4242.17.tmp:1:1: warning: leftover of an interrupted write; 'glossary cache prune' deletes it [cache-leftover]
                Verified 8 entries in .glossary/cache/: 3 corrupt; the next build refetches them, or delete them

                """)
    }

    /// What the build looks up, list and verify look at: a FIFO and a dangling link the build warns about, and a link
    /// to an entry elsewhere, which the build reads through.
    @Test func listAndVerifySeeFIFOsAndSymbolicLinks() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let cache = site.root.appendingPathComponent(".glossary/cache/en")
        #expect(mkfifo(cache.appendingPathComponent("pipe.json").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: cache.appendingPathComponent("gone.json").path, withDestinationPath: "nowhere.json")
        try site.write("elsewhere/serif.json", Self.entry("serif"))
        try FileManager.default.removeItem(at: cache.appendingPathComponent("serif.json"))
        let link = cache.appendingPathComponent("serif.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../../../elsewhere/serif.json")

        let verify = try await site.run(["cache", "verify"])
        #expect(verify.status == 1)
        #expect(
            verify.stderr == """
                .glossary/cache/en/gone.json:1:1: error: cache entry for 'gone' can't be read [cache-unreadable]
                .glossary/cache/en/pipe.json:1:1: error: cache entry for 'pipe' can't be read [cache-unreadable]
                Verified 10 entries in .glossary/cache/: 2 corrupt; the next build refetches them, or delete them

                """)
        let list = try await site.run(["cache", "list"])
        let rows = list.stdout.split(separator: "\n").map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        #expect(rows.contains("gone en corrupt") && rows.contains("pipe en corrupt") && rows.contains("serif en found"), "\(list.stdout)")
        #expect(list.stderr == "10 entries: 7 found, 1 not found, 0 stale, 2 corrupt (see 'glossary cache verify')\n")
    }

    @Test func pruneDryRunListsWithoutDeleting() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let before = site.files(under: ".glossary/cache")

        let result = try await site.run(["cache", "prune", "--dry-run"])

        #expect(result.status == 0)
        #expect(
            result.stdout == """
                would remove .glossary/cache/de/tinte.json (language 'de' is not the site's ('en'))
                would remove .glossary/cache/en/kerning.json (no page references 'kerning')
                would remove .glossary/cache/en/orphan.json (no page references 'orphan')

                """)
        #expect(result.stderr == "Would prune 3 files; 5 entries kept\n")
        #expect(site.files(under: ".glossary/cache") == before)
    }

    @Test func pruneDeletesWhatNoPageUsesAndLeftoversAndTheBuildStillNeedsNothing() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        try site.write(".glossary/cache/en/.ink.4242.17.tmp", "{")
        try site.write(".glossary/cache/en/gone.json", "not json")

        let result = try await site.run(["cache", "prune"])

        #expect(result.status == 0)
        #expect(
            result.stdout == """
                removed .glossary/cache/de/tinte.json (language 'de' is not the site's ('en'))
                removed .glossary/cache/en/gone.json (corrupt, and no page references its term)
                removed .glossary/cache/en/kerning.json (no page references 'kerning')
                removed .glossary/cache/en/orphan.json (no page references 'orphan')
                removed .glossary/cache/en/.ink.4242.17.tmp (leftover of an interrupted write)

                """)
        #expect(result.stderr == "Pruned 5 files; 5 entries kept\n")
        #expect(site.files(under: ".glossary/cache") == ["en/ink.json", "en/margin.json", "en/quill.json", "en/serif.json", "en/zzqx.json"])
        let build = try await site.run(["build", "--offline", "--drafts"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stderr.contains("(1 local, 4 cached, 0 fetched, 0 from WordNet), 1 unresolved"), "\(build.stderr)")
        #expect(try await site.run(["cache", "prune"]).stderr == "Nothing to prune; 5 entries kept\n")
    }

    @Test func pruneRefusesWhenAPageCannotBeRead() async throws {
        let site = try TestSite(Self.site + "\n-- content/bad.md --\n---\ntitle: [unclosed\n---\n[[orphan]]\n")
        defer { site.remove() }

        let result = try await site.run(["cache", "prune"])

        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("error: not pruning: the pages above could not be read, and their terms might be lost\n"), "\(result.stderr)")
        #expect(site.exists(".glossary/cache/en/orphan.json"))
    }

    @Test(arguments: [
        (["cache"], "error: missing what to do: list, verify or prune"),
        (["cache", "tidy"], "error: unknown cache action 'tidy'; use list, verify or prune"),
        (["cache", "list", "--dry-run"], "error: --dry-run only applies to prune"),
        (["cache", "list", "extra"], "error: unexpected argument 'extra'"),
    ])
    func usageMistakesExit64(arguments: [String], message: String) async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let result = try await site.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix(message + "\n\nUSAGE: glossary cache"), "\(result.stderr)")
    }

    @Test func withoutASiteItSaysWhereItLooked() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await TestSite.run(["cache", "list"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr == "error: no glossary.yml in \(folder.path); run this in a site's folder or pass --source\n")
    }
}
