import Foundation

/// Work started on a thread of its own, whose result is waited for later (`value`): what a build does beside its
/// other steps, on the core they leave free.
final class Meanwhile<Value>: @unchecked Sendable {
    private var result: Value?
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            result = work()
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// The result, once the work is done (the semaphore orders the thread's write before this read).
    var value: Value {
        done.wait()
        done.signal()
        return result!
    }
}
