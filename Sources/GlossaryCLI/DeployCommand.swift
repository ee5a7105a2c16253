import Foundation
import GlossaryKit

/// `glossary deploy`: builds the site, commits it as the whole tree of a branch (`gh-pages`) and pushes the branch.
///
/// The commit is made with git's plumbing, as ghp-import and `mkdocs gh-deploy` make theirs: the site's files go into
/// a temporary index (`GIT_INDEX_FILE`) from the output folder as work tree, then `write-tree`, `commit-tree` on the
/// branch's commit and, once the push has succeeded, `update-ref`. The repository's working tree, index and
/// checked-out branch are never touched, so a dirty tree or a detached HEAD deploys as well as a clean one.
struct DeployCommand: Command {
    static let name = "deploy"
    static let abstract = "Build the site and publish it on a git branch (gh-pages)"
    static let discussion = """
        Builds the site as 'build' does, then commits the output folder, with .nojekyll and a CNAME for site:'s host, \
        as the whole tree of --branch in the repository holding the site, and pushes the branch to --remote. The \
        working tree and the index are left alone. A build with errors (or warnings under --strict) deploys nothing; \
        when nothing changed since the branch's last commit, no commit is made.
        """

    static let remote = Option.value("--remote", "NAME", "The remote to push to (default: origin)")
    static let branch = Option.value("--branch", "NAME", "The branch that holds the site (default: gh-pages)")
    static let message = Option.value("--message", "TEXT", "The commit's message (default: 'Deploy <commit> of <branch>')")
    static let force = Option.flag("--force", "Push with --force, replacing the remote branch's history")
    static let noPush = Option.flag("--no-push", "Commit to the local branch only")

    static let options = BuildCommand.options + [remote, branch, message, force, noPush]

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        try parsed.expectNoPositional()
        let remote = parsed[Self.remote] ?? "origin"
        let branch = parsed[Self.branch] ?? "gh-pages"
        for (option, value) in [(Self.remote, remote), (Self.branch, branch)] where value.isEmpty || value.hasPrefix("-") {
            throw UsageError("\(option.name) needs a name, not '\(ParsedArguments.shown(value))'")
        }
        if let message = parsed[Self.message], message.allSatisfy(\.isWhitespace) { throw UsageError("--message must not be empty") }
        let source = context.resolve(parsed[OptionGroup.source])
        // Checked before building: a site that can't be deployed isn't built for nothing.
        guard let git = Git(folder: source, environment: context.environment) else {
            return fail("git is not installed (no 'git' on PATH)", context: context)
        }
        let gitDirectory: String
        do {
            gitDirectory = try git.run(["rev-parse", "--absolute-git-dir"])
        } catch {
            return fail("\(source.path) is not in a git repository: \(error.reason)", context: context)
        }

        guard (try? git.run(["check-ref-format", "refs/heads/" + branch])) != nil else {
            return fail("'\(ParsedArguments.shown(branch))' is not a valid branch name", context: context)
        }

        let built = try await BuildCommand.build(parsed, context: context)
        guard built.exitCode == ExitCode.success, let config = built.result.config else {
            // An interrupted build has said so already.
            if !built.result.interrupted { context.console.printError("Nothing deployed: the build failed") }
            return built.exitCode == ExitCode.success ? ExitCode.failure : built.exitCode
        }
        let deployment = Deployment(
            git: git, gitDirectory: gitDirectory, site: built.options.outputDirectory, remote: remote, branch: branch, config: config,
            message: parsed[Self.message], force: parsed.has(Self.force), push: !parsed.has(Self.noPush))
        do {
            context.console.printError(try deployment.run())
            return ExitCode.success
        } catch {
            return fail(error.message, context: context)
        }
    }

    private static func fail(_ message: String, context: CommandContext) -> Int32 {
        context.console.printError("error: \(message)")
        return ExitCode.failure
    }
}

extension DeployCommand {
    /// A deploy's git steps, once the site is built.
    struct Deployment {
        /// Why a deploy stopped, in a sentence that names the step.
        struct Failure: Error {
            var message: String
        }

        var git: Git
        var gitDirectory: String
        /// The built site: the tree of the branch's commit.
        var site: URL
        var remote: String
        var branch: String
        var config: SiteConfig
        var message: String?
        var force: Bool
        var push: Bool

        var ref: String { "refs/heads/" + branch }

        /// Commits and pushes; what was done, in a line.
        func run() throws(Failure) -> String {
            let tree = try step("could not record the site's files") { () throws(Git.Failure) in try writeTree() }
            let parent = try? git.run(["rev-parse", "--verify", "--quiet", ref + "^{commit}"])
            // A branch known only from the remote (a fresh clone) is built on, so the push is a fast-forward.
            let base = parent ?? (try? git.run(["rev-parse", "--verify", "--quiet", "refs/remotes/\(remote)/\(branch)^{commit}"]))
            if let base, (try? git.run(["rev-parse", base + "^{tree}"])) == tree {
                if parent == nil { try step("could not update \(branch)") { () throws(Git.Failure) in try git.run(["update-ref", ref, base, ""]) } }
                guard push else { return "Nothing to deploy: \(branch) already holds this site" }
                try pushing(ref)
                return "Nothing to deploy: \(branch) already holds this site (pushed to \(remote))"
            }
            let commit = try step("could not commit the site") { () throws(Git.Failure) in
                var arguments = ["commit-tree", tree]
                if let base { arguments += ["-p", base] }
                let (subject, body) = commitMessage()
                return try git.run(arguments + ["-m", subject, "-m", body])
            }
            let short = String(commit.prefix(7))
            if push { try pushing(commit) }
            // The local branch moves only once the remote has the commit: a failed push leaves it as it was.
            try step("could not update \(branch)") { () throws(Git.Failure) in
                try git.run(["update-ref", "-m", "glossary deploy", ref, commit, parent ?? ""])
            }
            return push ? "Deployed \(short) to \(branch) on \(remote)" : "Committed \(short) to \(branch) (not pushed)"
        }

        /// The tree of the site's files, `.nojekyll` and the `CNAME`, made in an index of its own.
        private func writeTree() throws(Git.Failure) -> String {
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("glossary-deploy-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: temporary) }
            let index = ["GIT_INDEX_FILE": temporary.appendingPathComponent("index").path]
            // The site's own settings for line endings and ignored files don't apply: its files go in as they are.
            let plain = ["--git-dir=\(gitDirectory)", "--work-tree=\(site.path)", "-c", "core.autocrlf=false", "-c", "core.safecrlf=false"]
            try git.run(plain + ["add", "--all", "--force", "--", "."], in: site, environment: index)
            var extra: [(String, String)] = [(".nojekyll", "")]
            if let host = cnameHost { extra.append(("CNAME", host + "\n")) }
            for (name, text) in extra where !FileManager.default.fileExists(atPath: site.appendingPathComponent(name).path) {
                let file = temporary.appendingPathComponent("blob")
                try? Data(text.utf8).write(to: file)
                let blob = try git.run(["--git-dir=\(gitDirectory)", "hash-object", "-w", "--", file.path])
                try git.run(["--git-dir=\(gitDirectory)", "update-index", "--add", "--cacheinfo", "100644,\(blob),\(name)"], environment: index)
            }
            return try git.run(["--git-dir=\(gitDirectory)", "write-tree"], environment: index)
        }

        /// The host GitHub Pages serves a custom domain on: `site:`'s (or a full `base_url`'s), without its port; none
        /// for a `*.github.io` address, which is GitHub's own.
        var cnameHost: String? {
            guard let origin = config.address?.origin, let separator = origin.range(of: "://") else { return nil }
            var host = String(origin[separator.upperBound...])
            if !host.hasSuffix("]"), let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
            guard !host.isEmpty, !host.hasSuffix(".github.io"), host != "github.io" else { return nil }
            return host
        }

        /// `Deploy <short sha> of <branch>` (or the given message), with the full sha in the body.
        private func commitMessage() -> (String, String) {
            guard let head = try? git.run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]) else {
                return (message ?? "Deploy the site", "Built from a repository without commits.")
            }
            let on = (try? git.run(["symbolic-ref", "--short", "--quiet", "HEAD"])).map { "of \($0)" } ?? "of a detached HEAD"
            return (message ?? "Deploy \(head.prefix(7)) \(on)", "Built from commit \(head).")
        }

        /// Pushes `source` (a commit or the branch) to the remote's branch.
        private func pushing(_ source: String) throws(Failure) {
            let arguments = ["push"] + (force ? ["--force"] : []) + [remote, "\(source):\(ref)"]
            do {
                try git.run(arguments)
            } catch {
                throw Failure(message: "could not push to \(remote): \(error.reason)\n\(branch) is left as it was")
            }
        }

        @discardableResult private func step<T>(_ what: String, _ body: () throws(Git.Failure) -> T) throws(Failure) -> T {
            do {
                return try body()
            } catch {
                throw Failure(message: "\(what): \(error.reason)")
            }
        }
    }
}
