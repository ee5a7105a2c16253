import Foundation

extension SiteBuilder {
    /// Builds and, when there are no errors, writes the site atomically to the output folder (`SiteTransaction`),
    /// starting from the state the last build into it left (`StateFile`) and leaving this one's.
    ///
    /// Builds of one site take turns (`BuildLock`): `waiting` hears when this one waits for another, `locked` when its
    /// turn has come (a wait can only be ended by the process ending, which is safe until then).
    public func buildAndWrite(waiting: (Int32?) -> Void = { _ in }, locked: () -> Void = {}) async -> BuildResult {
        if let problem = outputFolderProblem() { return BuildResult(diagnostics: [problem]) }
        let buildFolder = options.source.appendingPathComponent(".glossary/build", isDirectory: true)
        let lock: BuildLock?
        do {
            lock = try BuildLock(folder: buildFolder, wait: options.waitForOtherBuilds, waiting: waiting)
        } catch .busy(let holder) {
            return BuildResult(diagnostics: [Diagnostic(.buildLocked(holder: holder))])
        } catch {
            // A source folder we can't write to (a read-only checkout) still builds, unserialised.
            lock = nil
        }
        defer { withExtendedLifetime(lock) {} }
        locked()
        let output = options.outputDirectory.standardizedFileURL
        let stateURL = StateFile.url(folder: buildFolder, output: output)
        defer { Self.pruneStates(in: buildFolder, keeping: stateURL) }
        let transaction = SiteTransaction(output: output)
        let (clean, context) = (options.clean, Self.context(options))
        let jobs = options.jobs
        var (result, next) = await build(into: transaction) { clean ? nil : StateFile.read(stateURL, context: context, jobs: jobs) }
        let shownOutput = Self.relativePath(output, root: options.source)
        guard result.succeeded else {
            transaction.abandon()
            return result
        }
        let start = Date()
        // A build with nothing to do wrote nothing (and leaves the state as it was).
        if let written = next {
            do {
                let committed = try transaction.commit(written, jobs: options.jobs)
                result.stats.stageTimes.append(("commit", Date().timeIntervalSince(start)))
                let stateStart = Date()
                StateFile.write(committed, output: output, to: stateURL, jobs: options.jobs)
                result.stats.stageTimes.append(("state", Date().timeIntervalSince(stateStart)))
                next = committed
            } catch {
                result.diagnostics.append(Diagnostic(.writeFailed(reason: error.description), subject: shownOutput))
                result.outputs = nil
                // What the folder holds is no longer what the state says.
                unlink(stateURL.path)
            }
        }
        for (folder, names) in transaction.kept {
            result.diagnostics.append(Diagnostic(.dotfilesKept(folder: Self.relativePath(folder, root: options.source), names: names), subject: shownOutput))
        }
        result.stats.totalSeconds += Date().timeIntervalSince(start)
        FreedMemory.release((transaction, next))
        return result
    }

    /// Removes the state files in `folder` of output folders that no longer exist (a `--output` tried once, a folder
    /// deleted), other than `kept`.
    static func pruneStates(in folder: URL, keeping kept: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix("state-") && name != kept.lastPathComponent {
            let url = folder.appendingPathComponent(name)
            guard let output = StateFile.output(of: url) else { continue }
            var isFolder: ObjCBool = false
            if !(FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) && isFolder.boolValue) { unlink(url.path) }
        }
    }

    /// Why the output folder must not be written, if it mustn't: the swap replaces the folder whole, so an
    /// output that is the site itself, holds it, or lies inside its sources would delete the user's files.
    func outputFolderProblem() -> Diagnostic? {
        func real(_ url: URL) -> String {
            var path = url.standardizedFileURL.path
            var missing: [String] = []
            // Resolve symlinks through the part of the path that exists (the output may not exist yet).
            while !FileManager.default.fileExists(atPath: path), path != "/" {
                missing.insert((path as NSString).lastPathComponent, at: 0)
                path = (path as NSString).deletingLastPathComponent
            }
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            return ([resolved == "/" ? "" : resolved] + missing).joined(separator: "/")
        }
        let output = real(options.outputDirectory)
        let source = real(options.source)
        let protected = ["content", "themes", ".glossary"].map { source + "/" + $0 } + ["glossary.yml"].map { source + "/" + $0 }
        let inside = { (path: String, folder: String) in path == folder || path.hasPrefix(folder + "/") }
        guard inside(source, output) || protected.contains(where: { inside(output, $0) }) else { return nil }
        return Diagnostic(.outputPath, subject: options.outputDirectory.path)
    }
}
