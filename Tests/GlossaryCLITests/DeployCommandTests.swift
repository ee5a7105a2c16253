import Foundation
import TestSupport
import Testing

/// `glossary deploy` end to end: the real binary and the real git, against a bare repository in a temporary folder as
/// `origin`, with git's configuration isolated (no system or user files, a `HOME` of the test's own).
@Suite struct DeployCommandTests {
    static let site = """
        -- glossary.yml --
        title: Deployed
        site: https://glossary.example.org
        -- content/index.md --
        ---
        title: Home
        ---
        Welcome to [[kerning]].
        -- content/glossary/kerning.md --
        ---
        term: Kerning
        ---
        Space between letters.
        -- notes.txt --
        Tracked, then edited.
        """

    /// A site in a git repository (`main`, one commit) whose `origin` is a bare repository beside it.
    struct Repository {
        let site: TestSite
        /// The site's folder below the repository's, if it has one.
        let subfolder: String?
        /// Holds the bare repository and `HOME`; outside the site's repository.
        let outside: URL
        /// The folder with glossary.yml, below `site.root` by `subfolder`.
        let source: URL
        var remote: URL { outside.appendingPathComponent("remote.git") }
        var environment: [String: String]

        init(_ text: String = DeployCommandTests.site, subfolder: String? = nil) async throws {
            var text = text
            if let subfolder {
                text = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix("-- ") ? "-- \(subfolder)/" + $0.dropFirst(3) : $0 }
                    .joined(separator: "\n")
            }
            self.subfolder = subfolder
            let site = try TestSite(text, includeConfig: subfolder == nil)
            self.site = site
            source = subfolder.map { site.root.appendingPathComponent($0) } ?? site.root
            outside = try InlineSite.temporaryFolder("glossary-deploy-outside")
            let home = outside.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            environment = [
                "HOME": home.path, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_AUTHOR_NAME": "Tester",
                "GIT_AUTHOR_EMAIL": "tester@example.org", "GIT_COMMITTER_NAME": "Tester", "GIT_COMMITTER_EMAIL": "tester@example.org",
                "GIT_TERMINAL_PROMPT": "0", "GIT_CEILING_DIRECTORIES": outside.deletingLastPathComponent().path,
            ]
            try await git(["init", "--quiet", "--bare", remote.path], in: outside)
            try await git(["init", "--quiet", "-b", "main"])
            try site.write(".gitignore", "site/\n.site.*/\n.glossary/\n")
            try await git(["add", "--all"])
            try await git(["commit", "--quiet", "-m", "The site's sources"])
            try await git(["remote", "add", "origin", remote.path])
        }

        func remove() {
            site.remove()
            try? FileManager.default.removeItem(at: outside)
        }

        /// `git ARGS` in the site's repository (or `folder`); its stdout without the last newline.
        @discardableResult
        func git(_ arguments: [String], in folder: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
            let result = try await run(arguments, in: folder)
            try #require(result.status == 0, "git \(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            return result.stdout.hasSuffix("\n") ? String(result.stdout.dropLast()) : result.stdout
        }

        /// `git ARGS` whatever it comes to.
        func run(_ arguments: [String], in folder: URL? = nil) async throws -> ChildProcess.Result {
            var environment = GlossaryBinary.environment(self.environment)
            for name in ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE"] { environment[name] = nil }
            return try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/git"), arguments, in: folder ?? site.root, environment: environment)
        }

        /// `glossary deploy ARGS` (offline), run in the site's repository.
        func deploy(_ arguments: [String] = [], environment extra: [String: String] = [:]) async throws -> TestSite.Output {
            let source = source == site.root ? [] : ["--source", String(source.path.dropFirst(site.root.path.count + 1))]
            return try await TestSite.run(["deploy", "--offline"] + source + arguments, in: site.root, environment: environment.merging(extra) { $1 })
        }

        /// What `git ls-tree -r` lists of `ref` in `repository` (the site's by default), or nil when there is no such ref.
        func files(_ ref: String, in repository: URL? = nil) async throws -> [String]? {
            let result = try await run(["ls-tree", "-r", "--name-only", ref], in: repository)
            return result.status == 0 ? result.stdout.split(separator: "\n").map(String.init).sorted() : nil
        }

        /// The commit `ref` names, or nil.
        func commit(_ ref: String, in repository: URL? = nil) async throws -> String? {
            let result = try await run(["rev-parse", "--verify", "--quiet", ref + "^{commit}"], in: repository)
            return result.status == 0 ? result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
        }

        /// Every file of the built site, relative to it.
        var builtFiles: [String] { site.files(under: (subfolder.map { $0 + "/" } ?? "") + "site") }

        /// What a deploy must leave as it was: the status, the staged changes and the index file's bytes.
        func workingState() async throws -> (String, String, Data?) {
            let status = try await git(["status", "--porcelain", "--untracked-files=all"])
            let staged = try await git(["diff", "--cached"])
            return (status, staged, FileManager.default.contents(atPath: site.root.appendingPathComponent(".git/index").path))
        }

        /// Makes the repository dirty: a tracked file edited, a change staged, a file untracked.
        func makeDirty() async throws {
            try site.write("notes.txt", "Edited, not committed.\n")
            try site.write("staged.txt", "Staged.\n")
            try await git(["add", "staged.txt"])
            try site.write("untracked.txt", "Untracked.\n")
        }
    }

    @Test func theBranchHoldsExactlyTheSiteAndTheWorkingTreeAndIndexAreUntouched() async throws {
        let repository = try await Repository()
        defer { repository.remove() }
        try await repository.makeDirty()
        let before = try await repository.workingState()
        let head = try await repository.git(["rev-parse", "HEAD"])

        let result = try await repository.deploy()
        #expect(result.status == 0, "\(result.stderr)")
        let commit = try #require(try await repository.commit("gh-pages"))
        #expect(result.stderr.contains("Deployed \(commit.prefix(7)) to gh-pages on origin"), "\(result.stderr)")
        let built = repository.builtFiles
        #expect(built.contains("llms.txt") && built.contains("index.html"))
        #expect(try await repository.files("gh-pages") == (built + [".nojekyll", "CNAME"]).sorted())
        #expect(try await repository.git(["show", "gh-pages:CNAME"]) == "glossary.example.org")
        #expect(try await repository.git(["show", "gh-pages:.nojekyll"]) == "")
        #expect(try await repository.run(["show", "gh-pages:index.html"]).stdout == repository.site.read("site/index.html"))
        // The remote has the same commit; the message names the source commit.
        #expect(try await repository.commit("gh-pages", in: repository.remote) == commit)
        #expect(try await repository.git(["log", "-1", "--format=%s%n%b", "gh-pages"]) == "Deploy \(head.prefix(7)) of main\nBuilt from commit \(head).\n")
        #expect(try await repository.git(["rev-list", "--count", "gh-pages"]) == "1")

        let after = try await repository.workingState()
        #expect(after.0 == before.0, "\(before.0)\n---\n\(after.0)")
        #expect(after.1 == before.1)
        #expect(after.2 == before.2, "the index file's bytes are the same")
        #expect(try await repository.git(["rev-parse", "HEAD"]) == head)
        #expect(try await repository.git(["symbolic-ref", "--short", "HEAD"]) == "main")
    }

    @Test func aSecondDeployWithNoChangeMakesNoCommitAndAnEditMakesOne() async throws {
        let repository = try await Repository()
        defer { repository.remove() }
        #expect(try await repository.deploy().status == 0)
        let first = try #require(try await repository.commit("gh-pages"))

        let again = try await repository.deploy()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("Nothing to deploy: gh-pages already holds this site"), "\(again.stderr)")
        #expect(try await repository.commit("gh-pages") == first)
        #expect(try await repository.commit("gh-pages", in: repository.remote) == first)

        try repository.site.write("content/index.md", "---\ntitle: Home\n---\nWelcome back to [[kerning]].\n")
        let edited = try await repository.deploy(["--message", "Publish the new welcome"])
        #expect(edited.status == 0, "\(edited.stderr)")
        let second = try #require(try await repository.commit("gh-pages"))
        #expect(second != first)
        #expect(try await repository.git(["rev-parse", "gh-pages^"]) == first)
        #expect(try await repository.commit("gh-pages", in: repository.remote) == second)
        let head = try await repository.git(["rev-parse", "HEAD"])
        #expect(try await repository.git(["log", "-1", "--format=%s%n%b", "gh-pages"]) == "Publish the new welcome\nBuilt from commit \(head).\n")
    }

    @Test func aRejectedPushLeavesTheLocalBranchAsItWasAndNamesTheRemote() async throws {
        let repository = try await Repository()
        defer { repository.remove() }
        let hook = repository.remote.appendingPathComponent("hooks/pre-receive")
        try Data("#!/bin/sh\necho 'deploys are closed today' >&2\nexit 1\n".utf8).write(to: hook)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)

        // No branch yet: none is made.
        let refused = try await repository.deploy()
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("error: could not push to origin: "), "\(refused.stderr)")
        #expect(refused.stderr.contains("deploys are closed today"), "git's reason: \(refused.stderr)")
        #expect(try await repository.commit("gh-pages") == nil)

        // A branch there is stays where it was.
        #expect(try await repository.deploy(["--no-push"]).status == 0)
        let local = try #require(try await repository.commit("gh-pages"))
        try repository.site.write("content/index.md", "---\ntitle: Home\n---\nChanged.\n")
        let again = try await repository.deploy()
        #expect(again.status == 1 && again.stderr.contains("could not push to origin"), "\(again.stderr)")
        #expect(try await repository.commit("gh-pages") == local)
        #expect(try await repository.commit("gh-pages", in: repository.remote) == nil)
    }

    @Test func aBuildWithErrorsOrWarningsUnderStrictDeploysNothing() async throws {
        let repository = try await Repository()
        defer { repository.remove() }
        try repository.site.write("glossary.yml", "title: Broken\nllms: maybe\n")
        let broken = try await repository.deploy()
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("glossary.yml:2:7: error: 'llms' must be true, false or pages, found 'maybe' [config-value]"), "\(broken.stderr)")
        #expect(broken.stderr.contains("Nothing deployed: the build failed"))

        try repository.site.write("glossary.yml", "title: Warned\n")
        try repository.site.write("content/index.md", "On [[nosuchword]].\n")
        let warned = try await repository.deploy(["--strict"])
        #expect(warned.status == 1 && warned.stderr.contains("Nothing deployed"), "\(warned.stderr)")
        #expect(try await repository.commit("gh-pages") == nil)
        #expect(try await repository.commit("gh-pages", in: repository.remote) == nil)
        // Without --strict a warning doesn't stop it.
        #expect(try await repository.deploy().status == 0)
        #expect(try await repository.commit("gh-pages", in: repository.remote) != nil)
    }

    @Test func noPushCommitsToTheLocalBranchOnly() async throws {
        let repository = try await Repository()
        defer { repository.remove() }
        let result = try await repository.deploy(["--no-push", "--branch", "pages"])
        #expect(result.status == 0, "\(result.stderr)")
        let commit = try #require(try await repository.commit("pages"))
        #expect(result.stderr.contains("Committed \(commit.prefix(7)) to pages (not pushed)"), "\(result.stderr)")
        #expect(try await repository.commit("pages", in: repository.remote) == nil)
        #expect(try await repository.commit("gh-pages") == nil)
    }

    @Test func aBranchNameGitRefusesIsAnErrorAndAnEmptyOneBadUsage() async throws {
        let repository = try await Repository()
        defer { repository.remove() }
        let bad = try await repository.deploy(["--branch", "two..dots"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("error: 'two..dots' is not a valid branch name"), "\(bad.stderr)")
        #expect(!repository.site.exists("site/index.html"), "nothing built for nothing")
        let empty = try await repository.deploy(["--branch="])
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("error: --branch needs a name, not ''"), "\(empty.stderr)")
        #expect(try await repository.files("gh-pages", in: repository.remote) == nil)
    }

    @Test func aDetachedHeadDeploysAndTheMessageSaysSo() async throws {
        let repository = try await Repository()
        defer { repository.remove() }
        try await repository.git(["checkout", "--quiet", "--detach"])
        let head = try await repository.git(["rev-parse", "HEAD"])
        #expect(try await repository.deploy(["--no-push"]).status == 0)
        #expect(try await repository.git(["log", "-1", "--format=%s", "gh-pages"]) == "Deploy \(head.prefix(7)) of a detached HEAD")
        #expect(try await repository.git(["rev-parse", "HEAD"]) == head)
    }

    /// A clone that has the branch only from its remote builds on it, so the push is a fast-forward.
    @Test func withoutALocalBranchTheRemoteOneIsBuiltOn() async throws {
        let repository = try await Repository()
        defer { repository.remove() }
        #expect(try await repository.deploy().status == 0)
        let first = try #require(try await repository.commit("gh-pages"))
        try await repository.git(["branch", "--quiet", "-D", "gh-pages"])
        try await repository.git(["fetch", "--quiet", "origin"])
        try repository.site.write("content/index.md", "---\ntitle: Home\n---\nA new welcome.\n")
        let result = try await repository.deploy()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try await repository.git(["rev-parse", "gh-pages^"]) == first)
        #expect(try await repository.commit("gh-pages", in: repository.remote) == (try await repository.commit("gh-pages")))
    }

    @Test func aSiteInASubfolderOfTheRepository() async throws {
        let repository = try await Repository(
            """
            -- glossary.yml --
            title: In docs
            -- content/index.md --
            Home.
            """, subfolder: "docs")
        defer { repository.remove() }
        let result = try await repository.deploy()
        #expect(result.status == 0, "\(result.stderr)")
        let built = repository.builtFiles
        #expect(built.contains("index.html"))
        #expect(try await repository.files("gh-pages", in: repository.remote) == (built + [".nojekyll"]).sorted(), "no CNAME without site:")
    }

    @Test func outsideAGitRepositoryOrWithoutGitItSaysSo() async throws {
        let repository = try await Repository()
        defer { repository.remove() }
        try FileManager.default.removeItem(at: repository.site.root.appendingPathComponent(".git"))
        let outside = try await repository.deploy()
        #expect(outside.status == 1)
        #expect(outside.stderr.contains("error: \(repository.site.root.path) is not in a git repository: fatal: not a git repository"), "\(outside.stderr)")
        #expect(!repository.site.exists("site/index.html"), "nothing built for nothing")

        let noGit = try await repository.deploy(environment: ["PATH": repository.outside.path])
        #expect(noGit.status == 1)
        #expect(noGit.stderr.contains("error: git is not installed (no 'git' on PATH)"), "\(noGit.stderr)")
    }
}
