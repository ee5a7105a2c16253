import Foundation

/// A child process for tests, started with `posix_spawn` directly: the subset of Foundation's `Process` the tests
/// use, under the same names. Foundation's `Process.run()` in Swift 6.3.1 on Linux crashes now and then (a
/// 256-byte over-read of `/proc/self/fd` entries in `findMaximumOpenFromProcSelfFD`, fixed upstream by
/// swift-corelibs-foundation#5472); a test process holding many sockets and pipes hit it in 2 runs of 10.
///
/// One thread per child waits for it, so the status is reaped once and `terminationHandler`, `isRunning` and
/// `waitUntilExit` all read the same answer.
public final class Subprocess: @unchecked Sendable {
    public var executableURL: URL?
    public var arguments: [String] = []
    public var currentDirectoryURL: URL?
    public var environment: [String: String]?
    /// A `Pipe` or a `FileHandle`; nil keeps this process's own.
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?
    public var terminationHandler: (@Sendable (Subprocess) -> Void)?
    public private(set) var processIdentifier: Int32 = 0

    private let condition = NSCondition()
    private var status: Int32?

    public init() {}

    public func run() throws {
        guard let executable = executableURL?.path else { throw CocoaError(.fileNoSuchFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [FileHandle] = []
        for (target, stream, reads) in [(Int32(0), standardInput, true), (1, standardOutput, false), (2, standardError, false)] {
            switch stream {
            case let pipe as Pipe:
                let childEnd = reads ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, childEnd.fileDescriptor, target)
                parentEnds.append(childEnd)
            case let handle as FileHandle where handle.fileDescriptor >= 0:
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            case is FileHandle:
                // Foundation's null device has no descriptor of its own.
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", reads ? O_RDONLY : O_WRONLY, 0)
            default:
                break
            }
        }
        // The child keeps only its three streams. (glibc's _np actions, which Swift's Glibc module doesn't
        // declare: looked up by name.)
        guard let closeFrom = Self.closeFrom else { throw CocoaError(.featureUnsupported) }
        _ = closeFrom(&actions, 3)
        if let folder = currentDirectoryURL?.path {
            guard let changeDirectory = Self.changeDirectory else { throw CocoaError(.featureUnsupported) }
            _ = folder.withCString { changeDirectory(&actions, $0) }
        }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let environment = (self.environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in environment { free(pointer) }
        }
        var spawned: pid_t = 0
        let result = argv.withUnsafeBufferPointer { arguments in
            environment.withUnsafeBufferPointer { variables in
                posix_spawn(
                    &spawned, executable, &actions, nil, UnsafeMutablePointer(mutating: arguments.baseAddress!),
                    UnsafeMutablePointer(mutating: variables.baseAddress!))
            }
        }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        let pid = spawned
        processIdentifier = pid
        // The child has its ends: this process closes them, so readers see the end of file when the child exits.
        for handle in parentEnds { try? handle.close() }
        Thread { [self] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            // As Foundation reports it: the exit status, or the number of the signal that ended the process.
            let code = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : raw & 0x7F
            condition.withLock {
                status = code
                condition.broadcast()
            }
            terminationHandler?(self)
        }.start()
    }

    public var isRunning: Bool { processIdentifier != 0 && condition.withLock { status == nil } }

    public func waitUntilExit() {
        condition.withLock {
            while status == nil { condition.wait() }
        }
    }

    /// The exit status, or the signal's number for a process a signal ended; 0 while it runs.
    public var terminationStatus: Int32 { condition.withLock { status ?? 0 } }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let closeFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: CloseFrom.self) }
    private static let changeDirectory: ChangeDirectory? =
        dlsym(nil, "posix_spawn_file_actions_addchdir_np").map { unsafeBitCast($0, to: ChangeDirectory.self) }

    public func terminate() {
        if processIdentifier != 0 { kill(processIdentifier, SIGTERM) }
    }
}
