import Dispatch

extension Array where Element: Sendable {
    /// `map` over `jobs` threads, results in order; pages render independently so this is safe and fast.
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
        // concurrentPerform runs as many iterations at once as there are cores, whatever `iterations` is: so
        // exactly `workers` iterations, each striding over the elements, is what bounds the threads to `jobs`.
        let workers = Swift.min(count, jobs)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var index = worker
            while index < elements.count {
                slots[index] = transform(elements[index])
                index += workers
            }
        }
        return results.map { $0! }
    }
}
