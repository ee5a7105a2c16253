import Foundation

/// `git`, run as a child process in one repository: its output captured, its failure an error with git's own words.
///
/// The child gets the command's environment without the variables that would point git at another repository, index
/// or work tree (`GIT_DIR`, `GIT_INDEX_FILE`, `GIT_WORK_TREE`, as set when glossary runs from a hook), plus what a
/// call adds; it reads nothing on stdin, and its output goes to files, so a chatty command can never fill a pipe.
struct Git {
    /// A git command that failed: its arguments, its status, and what it wrote to stderr.
    struct Failure: Error {
        var arguments: [String]
        var status: Int32
        var stderr: String

        /// git's message, on one line or a few: without `hint:` lines and trailing space.
        var reason: String {
            let lines = stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("hint:") }
            return lines.isEmpty ? "git \(arguments.first ?? "") exited with status \(status)" : lines.joined(separator: "\n")
        }
    }

    /// The `git` executable.
    let executable: String
    /// Where commands run: the folder they act on.
    var folder: URL
    var environment: [String: String]

    /// `git` on `PATH` (from `environment`), run in `folder`; nil when there is none.
    init?(folder: URL, environment: [String: String]) {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        guard let found = path.split(separator: ":").map({ String($0) + "/git" }).first(where: { access($0, X_OK) == 0 }) else { return nil }
        executable = found
        self.folder = folder
        var environment = environment
        for name in ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_PREFIX", "GIT_OBJECT_DIRECTORY"] { environment[name] = nil }
        self.environment = environment
    }

    /// Runs `git ARGUMENTS` and gives its stdout with the trailing newline removed.
    @discardableResult
    func run(_ arguments: [String], in folder: URL? = nil, environment extra: [String: String] = [:]) throws(Failure) -> String {
        let result = Self.spawn(executable, arguments, in: (folder ?? self.folder).path, environment: environment.merging(extra) { $1 })
        guard let result, result.status == 0 else {
            throw Failure(arguments: arguments, status: result?.status ?? -1, stderr: result?.stderr ?? "could not start \(executable)")
        }
        var output = result.stdout
        while output.hasSuffix("\n") { output.removeLast() }
        return output
    }

    /// The child's status, stdout and stderr; nil when it could not be started.
    private static func spawn(_ executable: String, _ arguments: [String], in folder: String, environment: [String: String]) -> (
        status: Int32, stdout: String, stderr: String
    )? {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("glossary-git-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)) != nil else { return nil }
        defer { try? FileManager.default.removeItem(at: temporary) }
        let outPath = temporary.appendingPathComponent("out").path
        let errPath = temporary.appendingPathComponent("err").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // The child keeps only its three streams, and starts in `folder` (glibc's _np actions, which Swift's Glibc
        // module doesn't declare: looked up by name).
        guard let closeFrom, let changeDirectory else { return nil }
        _ = closeFrom(&actions, 3)
        _ = folder.withCString { changeDirectory(&actions, $0) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var child: pid_t = 0
        let started = argv.withUnsafeBufferPointer { argv in
            variables.withUnsafeBufferPointer { variables in
                posix_spawn(
                    &child, executable, &actions, nil, UnsafeMutablePointer(mutating: argv.baseAddress!), UnsafeMutablePointer(mutating: variables.baseAddress!)
                )
            }
        }
        guard started == 0 else { return nil }
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) == -1 && errno == EINTR {}
        let status = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        func read(_ path: String) -> String { FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? "" }
        return (status, read(outPath), read(errPath))
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let closeFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: CloseFrom.self) }
    private static let changeDirectory: ChangeDirectory? =
        dlsym(nil, "posix_spawn_file_actions_addchdir_np").map { unsafeBitCast($0, to: ChangeDirectory.self) }
}
