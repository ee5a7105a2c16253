import Foundation

/// Waits for SIGINT or SIGTERM, which stop the server or the build cleanly instead of killing the process; a
/// second one quits at once (exit 130), should stopping take too long.
final class TerminationSignal: @unchecked Sendable {
    private let queue = DispatchQueue(label: "glossary.signals")
    private var first: Int32?
    private var waiter: CheckedContinuation<Int32, Never>?

    /// Where the handler writes each signal's number (`write` is safe in a signal handler); made before any
    /// handler is installed.
    private static let pipeEnds: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }()

    /// What the first signal prints when nobody is waiting for it yet.
    private let notice: String
    /// Told of the first signal (the build command cancels its build).
    private let onFirst: @Sendable (Int32) -> Void

    init(console: Console, notice: String, onFirst: @escaping @Sendable (Int32) -> Void = { _ in }) {
        self.notice = notice
        self.onFirst = onFirst
        // A handler of our own, in place before this returns. (A dispatch signal source is registered later,
        // on libdispatch's thread, and a signal ignored until then was lost: an early Ctrl-C did nothing.)
        let ends = Self.pipeEnds
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(TerminationSignal.pipeEnds.write, &byte, 1)
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for number in [SIGINT, SIGTERM] { sigaction(number, &action, nil) }
        let reader = Thread { [self] in
            var byte: UInt8 = 0
            while true {
                let count = read(ends.read, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { return }
                let number = Int32(byte)
                queue.async { self.handle(number, console: console) }
            }
        }
        reader.name = "glossary signals"
        reader.start()
    }

    private func handle(_ number: Int32, console: Console) {
        guard first == nil else {
            console.printError("Quitting now.")
            _exit(130)
        }
        first = number
        if let waiter {
            waiter.resume(returning: number)
            self.waiter = nil
        } else {
            console.printError(notice)
        }
        onFirst(number)
    }

    /// The first signal received so far, if any.
    var received: Int32? { queue.sync { first } }

    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                if let first {
                    continuation.resume(returning: first)
                } else {
                    waiter = continuation
                }
            }
        }
    }
}
