import Foundation
import TestSupport

/// `glossary` started in the background, to run builds side by side, watch what one prints, or kill one
/// mid-way.
final class BackgroundBuild: @unchecked Sendable {
    let process = Subprocess()
    private let lock = NSLock()
    private var stderr = ""

    init(site: TestSite, arguments: [String], environment: [String: String], captureErrors: Bool = false) throws {
        process.executableURL = GlossaryBinary.url
        process.arguments = arguments
        process.currentDirectoryURL = site.root
        process.environment = GlossaryBinary.environment(environment)
        process.standardOutput = FileHandle.nullDevice
        if captureErrors {
            let pipe = Pipe()
            process.standardError = pipe
            // A thread of its own reads as the text comes (dispatch-based handlers can lag far behind on a busy
            // machine).
            Thread { [self] in
                let handle = pipe.fileHandleForReading
                while case let data = handle.availableData, !data.isEmpty {
                    let text = String(decoding: data, as: UTF8.self)
                    lock.withLock { stderr += text }
                }
            }.start()
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
    }

    /// What it has written to stderr so far (when started with `captureErrors`).
    var errors: String { lock.withLock { stderr } }

    /// Waits until stderr contains `text`, for at most `seconds`; false if it never did.
    func waitForError(containing text: String, seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            if errors.contains(text) { return true }
            // Checked once more at the end: a busy machine may have kept this task waiting past the deadline.
            if !process.isRunning || ContinuousClock.now >= deadline { return errors.contains(text) }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    func kill() { Foundation.kill(process.processIdentifier, SIGKILL) }

    /// The exit status, or the signal number for a killed process; waited for on a thread of its own.
    @discardableResult
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread { [process] in
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }.start()
        }
    }
}
