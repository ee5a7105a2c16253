import Dispatch
import Synchronization

extension Array where Element: Sendable {
    /// `map` over `jobs` threads, results in order; pages render independently so this is safe and fast.
    ///
    /// Each thread takes the next element not yet taken, so a slow element holds up one thread while the others go on
    /// (an element that costs far more than the rest is best put first: it then runs beside them, not after them).
    func parallelMap<T: Sendable>(jobs: Int, _ transform: @Sendable (Element) -> T) -> [T] {
        guard count > 1, jobs > 1 else { return map(transform) }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        nonisolated(unsafe) let slots = results
        let elements = self
        let next = Atomic<Int>(0)
        // concurrentPerform runs as many iterations at once as there are cores, whatever `iterations` is: so
        // exactly `workers` iterations, each taking elements until none is left, is what bounds the threads to `jobs`.
        let workers = Swift.min(count, jobs)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < elements.count else { return }
                slots[index] = transform(elements[index])
            }
        }
        return results.map { $0! }
    }
}
