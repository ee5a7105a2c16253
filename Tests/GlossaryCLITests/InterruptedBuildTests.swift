import Foundation
import TestSupport
import Testing

/// Ctrl-C or SIGTERM during `glossary build`: the build stops, removes what it had started, leaves the site as
/// it was and exits 128 + the signal's number.
@Suite struct InterruptedBuildTests {
    static let site = """
        -- glossary.yml --
        title: Interrupted
        -- content/index.md --
        ---
        title: Home
        ---
        The first version of [[kerning]].
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        ---
        The space between two letters.
        """

    /// Names beside `site/` other than the site and its previous generation: what a dead build would leave.
    static func leftovers(_ site: TestSite) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: site.root.path)) ?? []).filter { $0.hasPrefix(".site.") && $0 != ".site.previous" }
    }

    /// Waits until `condition` holds or the build ends, for at most `seconds`.
    static func waitUntil(_ build: BackgroundBuild, seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while build.process.isRunning && ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return condition()
    }

    @Test func aSignalWhileRenderingRemovesTheHalfWrittenSite() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        #expect(try await site.run(["build", "--offline"]).status == 0)
        let before = site.read("site/index.html")
        // Enough pages that rendering takes a while.
        for index in 0..<1000 {
            try site.write("content/pages/page-\(index).md", "---\ntitle: Page \(index)\n---\n# Page \(index)\n\nAbout [[kerning]], page \(index).\n")
        }
        try site.write("content/index.md", "---\ntitle: Home\n---\nThe second version.\n")

        // The signal goes the moment the build makes its staging folder, from a thread watching for it.
        let trigger = try SignalOnCreation(folder: site.root, prefix: ".site.building", signal: SIGINT)
        defer { trigger.stop() }
        let build = try BackgroundBuild(site: site, arguments: ["build", "--offline"], environment: [:], captureErrors: true)
        trigger.arm(build.process.processIdentifier)
        let status = await build.wait()
        try #require(trigger.fired, "the build ended before it wrote anything: \(build.errors)")

        #expect(status == 130, "\(build.errors)")
        #expect(build.errors.hasSuffix("Interrupted; stopping the build (again to quit now).\nBuild interrupted; site/ left unchanged\n"), "\(build.errors)")
        #expect(Self.leftovers(site).isEmpty, "the staging folder is removed")
        #expect(site.read("site/index.html") == before, "the site is the first build's")
        #expect(!site.exists("site/pages"))
        // And the next build builds it all.
        #expect(try await site.run(["build", "--offline"]).status == 0)
        #expect(site.exists("site/pages/page-999/index.html"))
    }

    @Test func aSignalWhileFetchingStopsTheBuildAndLeavesTheCacheWhole() async throws {
        let site = try TestSite(Self.site + "\n-- content/more.md --\n---\ntitle: More\n---\nAbout [[ligature]] and [[serif]].\n")
        defer { site.remove() }
        let server = try LoopbackServer { _ in .hang }
        defer { server.stop() }
        // A request waited for would hold the build for the whole timeout (the most the configuration allows), twice the
        // bound below, which only a machine stalled for minutes comes near.
        try site.write("glossary.yml", "title: Interrupted\ndictionary:\n  timeout_seconds: 600\n")

        let build = try BackgroundBuild(site: site, arguments: ["build"], environment: ["GLOSSARY_API_URL": server.url("/{word}")], captureErrors: true)
        let asked = await Self.waitUntil(build, seconds: 60) { server.count("/ligature") + server.count("/serif") > 0 }
        try #require(asked, "\(build.errors)")
        let signalled = ContinuousClock.now
        kill(build.process.processIdentifier, SIGTERM)
        let status = await build.wait()

        #expect(status == 143, "\(build.errors)")
        #expect(ContinuousClock.now - signalled < .seconds(300), "a request in flight is abandoned, not waited for")
        #expect(build.errors.contains("Build interrupted; site/ left unchanged\n"), "\(build.errors)")
        #expect(!site.exists("site"))
        #expect(Self.leftovers(site).isEmpty)
        #expect(site.files(under: ".glossary/cache").isEmpty, "nothing half-fetched is cached")
    }

    @Test func aSignalWhileWaitingForAnotherBuildEndsAtOnce() async throws {
        let site = try TestSite(Self.site)
        defer { site.remove() }
        let folder = site.root.appendingPathComponent(".glossary/build")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let descriptor = open(folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT, 0o644)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX) == 0)

        let build = try BackgroundBuild(site: site, arguments: ["build", "--offline"], environment: [:], captureErrors: true)
        #expect(await build.waitForError(containing: "Waiting for another build of this site to finish", seconds: 30), "\(build.errors)")
        kill(build.process.processIdentifier, SIGINT)
        #expect(await build.wait() == 130)
        #expect(!site.exists("site"))
        #expect(Self.leftovers(site).isEmpty)
    }
}
