import Foundation
import TestSupport
import Testing

/// `glossary completion bash|zsh|fish`: scripts the real shells load and complete with.
@Suite struct CompletionCommandTests {
    /// Runs `shell -c script` and returns its stdout.
    static func shell(_ shell: String, _ script: String) async throws -> (status: Int32, output: String) {
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [shell, "-c", script]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The script, in a site folder of its own that the caller removes.
    static func script(_ shell: String) async throws -> URL {
        let site = try TestSite("-- content/index.md --\nHi.\n")
        let result = try await site.run(["completion", shell])
        #expect(result.status == 0)
        let url = site.root.appendingPathComponent("completion.\(shell)")
        try Data(result.stdout.utf8).write(to: url)
        return url
    }

    @Test func bashCompletesCommandsOptionsAndValues() async throws {
        let script = try await Self.script("bash")
        defer { try? FileManager.default.removeItem(at: script.deletingLastPathComponent()) }
        let complete = { (words: String, index: Int) async throws -> String in
            try await Self.shell("bash", "source '\(script.path)'; COMP_WORDS=(\(words)); COMP_CWORD=\(index); _glossary; echo \"${COMPREPLY[*]}\"").output
        }
        #expect(try await complete("glossary bu", 1) == "build\n")
        #expect(try await complete("glossary e", 1) == "explain\n")
        #expect(try await complete("glossary build --of", 2) == "--offline\n")
        #expect(try await complete("glossary build --format ''", 3) == "text json github\n")
        #expect(try await complete("glossary cache ''", 2) == "list verify prune\n")
        #expect(try await complete("glossary explain unknown-t", 2) == "unknown-term\n")
        #expect(try await complete("glossary serve --p", 2) == "--port --poll\n")
    }

    @Test func fishCompletesCommandsAndOptions() async throws {
        let script = try await Self.script("fish")
        defer { try? FileManager.default.removeItem(at: script.deletingLastPathComponent()) }
        let result = try await Self.shell("fish", "source '\(script.path)'; complete -C 'glossary bu'; complete -C 'glossary build --of'")
        #expect(
            result.output == "build\tBuild the site into site/\n--offline\tNever contact the dictionary API; use the team's entries, the cache and WordNet\n")
    }

    @Test func zshScriptIsValid() async throws {
        let script = try await Self.script("zsh")
        defer { try? FileManager.default.removeItem(at: script.deletingLastPathComponent()) }
        #expect(try await Self.shell("zsh", "zsh -n '\(script.path)' && echo ok").output == "ok\n")
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.hasPrefix("#compdef glossary\n"))
        #expect(text.contains(#"'--source=[The site'\''s folder, holding glossary.yml (default  current folder)]:DIR:_files -/'"#))
    }

    @Test func unknownShellIsAUsageError() async throws {
        let site = try TestSite("-- content/index.md --\nHi.\n")
        defer { site.remove() }
        let result = try await site.run(["completion", "tcsh"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: unknown shell 'tcsh'; use bash, zsh or fish\n"))
    }
}
