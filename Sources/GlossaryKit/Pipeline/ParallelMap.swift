import Dispatch

extension Array where Element: Sendable {
    /// `map` over `jobs` threads, results in order; pages render independently so this is safe and fast.
    func parallelMap<T: Sendable>(jobs: Int, _ transform: @Sendable (Element) -> T) -> [T] {
        guard count > 1, jobs > 1 else { return map(transform) }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        nonisolated(unsafe) let slots = results
        let elements = self
        let chunks = Swift.min(count, jobs * 4)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var index = chunk
            while index < elements.count {
                slots[index] = transform(elements[index])
                index += chunks
            }
        }
        return results.map { $0! }
    }
}
