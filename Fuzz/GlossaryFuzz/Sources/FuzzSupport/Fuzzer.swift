import CLibFuzzer
import Glibc

/// Runs a libFuzzer target and checks its invariants.
///
/// SwiftPM gives every executable a `main`, so libFuzzer's own `main` is never linked; `run` hands the
/// command line to `LLVMFuzzerRunDriver` instead, which takes the same options (`-max_total_time=600`, a
/// corpus folder, a crash file to replay).
public enum Fuzzer {
    /// The target's body; set once before libFuzzer starts, read only by the callback on the same thread.
    nonisolated(unsafe) private static var body: ((UnsafeRawBufferPointer) -> Void)?

    /// Calls `body` with every input libFuzzer generates, until it stops; then exits with its status.
    public static func run(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
        Self.body = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            Fuzzer.body?(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
        exit(status)
    }

    /// Stops with `message` when `condition` is false: libFuzzer saves the input as a crash, so a broken
    /// invariant is found like a crash is.
    public static func expect(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        guard !condition() else { return }
        let text = "invariant broken at \(fileID):\(line): \(message())\n"
        _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
        abort()
    }
}
