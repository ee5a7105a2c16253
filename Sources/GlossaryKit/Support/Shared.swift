import Synchronization

/// A value made once, by the first to ask for it, while the others wait.
final class Shared<Value: Sendable>: Sendable {
    private let made = Mutex<Value?>(nil)
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    var value: Value {
        made.withLock { value in
            if let value { return value }
            let new = make()
            value = new
            return new
        }
    }

    /// Lets the value go (the next to ask makes it again).
    func release() { made.withLock { $0 = nil } }
}
