import Dispatch
import Synchronization

extension Array where Element: Sendable {
    /// `map` over `jobs` threads, results in order.
    ///
    /// Each thread takes the next element not yet taken, so a slow element holds up one thread while the others go on
    /// (an element that costs far more than the rest is best put first: it then runs beside them, not after them).
    /// Inside another `parallelMap` it runs on the calling thread (Dispatch runs a nested `concurrentPerform` so).
    func parallelMap<T: Sendable>(jobs: Int, _ transform: @Sendable (Element) -> T) -> [T] {
        guard count > 1, jobs > 1 else { return map(transform) }
        let next = Atomic<Int>(0)
        let parts = Mutex<[[(index: Int, value: T)]]>([])
        // concurrentPerform runs as many iterations at once as there are cores, whatever `iterations` is: so exactly
        // `workers` iterations, each taking elements until none is left, is what bounds the threads to `jobs`.
        DispatchQueue.concurrentPerform(iterations: Swift.min(count, jobs)) { _ in
            var part: [(index: Int, value: T)] = []
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < count else { break }
                part.append((index, transform(self[index])))
            }
            parts.withLock { $0.append(part) }
        }
        var results = [T?](repeating: nil, count: count)
        for part in parts.withLock({ $0 }) {
            for (index, value) in part { results[index] = value }
        }
        return results.map { $0! }
    }
}
