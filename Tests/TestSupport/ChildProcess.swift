import Foundation

/// Runs a program to completion without holding a thread of Swift's cooperative pool while it runs: the
/// process is waited for on a thread of its own. Tests run in parallel on a pool as wide as the machine has
/// cores (two here), so a test blocked on a child would stall every other test's `await`.
public enum ChildProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public static func run(
        _ executable: URL, _ arguments: [String], in folder: URL? = nil, environment: [String: String]? = nil
    ) async throws -> Result {
        let process = Subprocess()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                // Read both pipes before waiting, so a chatty child can't block on a full pipe.
                nonisolated(unsafe) var errData = Data()
                let stderrRead = DispatchSemaphore(value: 0)
                let reader = Thread {
                    errData = err.fileHandleForReading.readDataToEndOfFile()
                    stderrRead.signal()
                }
                reader.start()
                let outData = out.fileHandleForReading.readDataToEndOfFile()
                stderrRead.wait()
                process.waitUntilExit()
                continuation.resume(
                    returning: Result(
                        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                        stderr: String(decoding: errData, as: UTF8.self)))
            }
            thread.start()
        }
    }
}
