import Foundation
import Synchronization
import TestSupport
import Testing

@testable import GlossaryKit

/// Opening the database, its failures, and libwordnet behind one owner while many threads ask.
@Suite struct WordNetTests {
    @Test func opensDebiansDataFolderByDefault() throws {
        let wordNet = try WordNet.open(environment: [:])
        #expect(wordNet.dataFolder == "/usr/share/wordnet")
        #expect(wordNet.warnings.isEmpty, "\(wordNet.warnings)")
        #expect(try WordNet.open(dataFolder: "/usr/share/wordnet/").dataFolder == wordNet.dataFolder)
    }

    @Test func theFolderFollowsWNSEARCHDIRThenWNHOME() {
        #expect(WordNet.defaultDataFolder(["WNSEARCHDIR": "/a", "WNHOME": "/b"]) == "/a")
        #expect(WordNet.defaultDataFolder(["WNHOME": "/b"]) == "/b/dict")
        #expect(WordNet.defaultDataFolder([:]) == "/usr/share/wordnet")
    }

    @Test func anEmptyDataFolderIsAnErrorValue() throws {
        let empty = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let expected = WordNetError(folder: empty, reason: .unreadableFiles(WordNet.requiredFiles))
        #expect(throws: expected) { try WordNet.open(environment: ["WNSEARCHDIR": empty]) }
        #expect(throws: expected) { try WordNet.open(dataFolder: empty) }
        #expect(expected.description.hasPrefix("the WordNet data folder \(empty) lacks readable index.noun, data.noun, noun.exc, index.verb"))
        #expect(expected.description.hasSuffix("(install wordnet-base, or set WNSEARCHDIR)"))
    }

    @Test func aMissingDataFolderIsAnErrorValue() throws {
        let parent = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let missing = parent + "/nowhere"
        let error = WordNetError(folder: missing, reason: .missingFolder)
        #expect(throws: error) { try WordNet.open(environment: ["WNSEARCHDIR": missing]) }
        #expect(throws: WordNetError(folder: parent + "/dict", reason: .missingFolder)) { try WordNet.open(environment: ["WNHOME": parent]) }
        #expect(error.description == "no WordNet data folder at \(missing) (install wordnet-base, or set WNSEARCHDIR to the folder holding index.noun)")
    }

    @Test func aFolderMissingOneFileNamesIt() throws {
        let folder = try Self.linkedCopy(of: WordNet.debianDataFolder, leavingOut: ["verb.exc"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: WordNetError(folder: folder, reason: .unreadableFiles(["verb.exc"]))) { try WordNet.open(dataFolder: folder) }
    }

    @Test func aFileWhereTheFolderShouldBeIsMissing() throws {
        #expect(throws: WordNetError(folder: "/usr/share/wordnet/index.noun", reason: .missingFolder)) {
            try WordNet.open(dataFolder: "/usr/share/wordnet/index.noun")
        }
    }

    @Test func aPathLibwordnetCannotHoldIsAnError() {
        let long = "/tmp/" + String(repeating: "x", count: 250)
        #expect(throws: WordNetError(folder: long, reason: .pathTooLong(limit: 200))) { try WordNet.open(dataFolder: long) }
    }

    /// libwordnet holds one database per process; a second folder is refused, not silently ignored.
    @Test func aSecondFolderInTheSameProcessIsRefused() throws {
        _ = try WordNet.open()
        let other = try Self.linkedCopy(of: WordNet.debianDataFolder, leavingOut: [])
        defer { try? FileManager.default.removeItem(atPath: other) }
        let error = WordNetError(folder: other, reason: .anotherFolderOpen("/usr/share/wordnet"))
        #expect(throws: error) { try WordNet.open(dataFolder: other) }
        #expect(error.description.contains("already uses /usr/share/wordnet"))
    }

    @Test func lookupsFromManyThreadsMatchSerialOnes() throws {
        let wordNet = try WordNet.open()
        let words = [
            "keyboard", "keyboards", "run", "ran", "bank", "good", "better", "light", "geese", "e-mail", "news", "glasses",
            "species", "analyses", "went", "tontfroostity", "rock 'n' roll", "well", "fast", "stopping",
        ]
        let serial = words.map { Lookup(entries: wordNet.entries(for: $0), forms: wordNet.forms(of: $0), hasEntry: wordNet.hasEntry(for: $0)) }
        let mismatches = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<2 {
                for offset in words.indices {
                    let index = (offset + worker + round) % words.count
                    let word = words[index]
                    // Different calls at once on different threads: entries, forms and index checks interleave.
                    let lookup = Lookup(entries: wordNet.entries(for: word), forms: wordNet.forms(of: word), hasEntry: wordNet.hasEntry(for: word))
                    if lookup != serial[index] { mismatches.withLock { $0.append(word) } }
                }
            }
        }
        #expect(mismatches.withLock { $0 }.isEmpty)
        #expect(serial.contains { !$0.entries.isEmpty } && serial.contains { $0.entries.isEmpty && !$0.forms.baseForms.isEmpty })
    }

    struct Lookup: Equatable {
        var entries: [DictionaryEntry]
        var forms: WordForms
        var hasEntry: Bool
    }

    // MARK: - In a child process: the folder from the process environment, and libwordnet's own messages

    @Test func aChildProcessWithAnEmptyWNSEARCHDIRReportsTheErrorAndPrintsNothingElse() throws {
        let empty = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let output = try Self.runBench(["--show", "keyboard"], environment: ["WNSEARCHDIR": empty])
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == "wordnet-bench: error: \(WordNetError(folder: empty, reason: .unreadableFiles(WordNet.requiredFiles)).description)\n")
    }

    /// A folder with only the required files: libwordnet warns about the verb example files through
    /// `display_message`, and the warnings arrive as values, not on the terminal.
    @Test func libwordnetsWarningsArriveAsValues() throws {
        let folder = try Self.linkedCopy(of: WordNet.debianDataFolder, leavingOut: ["sents.vrb", "sentidx.vrb", "cntlist.rev"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = try Self.runBench(["--show", "keyboard"], environment: ["WNSEARCHDIR": folder])
        #expect(output.status == 0)
        #expect(
            output.stderr == """
                wordnet-bench: warning: WordNet library warning: Can't open verb example sentence file(\(folder)/sents.vrb)
                wordnet-bench: warning: WordNet library warning: Can't open verb example sentence index file(\(folder)/sentidx.vrb)

                """)
        let shown = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]]
        #expect(shown?.first?["hasEntry"] as? Bool == true)
        #expect((shown?.first?["entries"] as? [Any])?.count == 1)
    }

    /// libwordnet reads its folder from the environment inside `wninit`; a folder the caller names is handed to it
    /// there, so the warnings name the copy's files, not Debian's.
    @Test func anExplicitFolderIsTheOneLibwordnetOpens() throws {
        let folder = try Self.linkedCopy(of: WordNet.debianDataFolder, leavingOut: ["sents.vrb"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = try Self.runBench(["--data", folder, "--show", "run"], environment: [:])
        #expect(output.status == 0)
        #expect(output.stderr == "wordnet-bench: warning: WordNet library warning: Can't open verb example sentence file(\(folder)/sents.vrb)\n")
        #expect(output.stdout.contains("\"partOfSpeech\" : \"verb\""))
    }

    // MARK: - Helpers

    static func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("glossary-wordnet-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A folder of symbolic links to `folder`'s files, except `leavingOut`.
    static func linkedCopy(of folder: String, leavingOut: Set<String>) throws -> String {
        let copy = try temporaryFolder()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !leavingOut.contains(name) {
            try FileManager.default.createSymbolicLink(atPath: copy + "/" + name, withDestinationPath: folder + "/" + name)
        }
        return copy
    }

    /// The `wordnet-bench` tool built beside the test bundle.
    static let bench: URL = {
        let bundleFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundleFolder, bundleFolder.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("wordnet-bench")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/wordnet-bench")
    }()

    static func runBench(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Subprocess()
        process.executableURL = bench
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "WNHOME")
        env.removeValue(forKey: "WNSEARCHDIR")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read stderr on another thread while this one reads stdout, so neither pipe can fill up and stall the child.
        let stderrData = Mutex(Data())
        let stderrDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            stderrData.withLock { $0 = data }
            stderrDone.signal()
        }
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        stderrDone.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdoutData, as: UTF8.self), String(decoding: stderrData.withLock { $0 }, as: UTF8.self))
    }
}
