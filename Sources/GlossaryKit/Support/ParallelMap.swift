import Dispatch
import Synchronization

extension Array where Element: Sendable {
    /// `map` over `jobs` threads, results in order.
    ///
    /// Each thread takes the next element not yet taken, so a slow element holds up one thread while the others go on
    /// (an element that costs far more than the rest is best put first: it then runs beside them, not after them).
    /// Inside another `parallelMap` it runs on the calling thread (Dispatch runs a nested `concurrentPerform` so).
    ///
    /// Each result is made in its place in the array returned, never copied: an element is taken by exactly one thread,
    /// so each place is written once, and `concurrentPerform` returns only once every thread is done.
    func parallelMap<T: Sendable>(jobs: Int, _ transform: @Sendable (Element) -> T) -> [T] {
        guard count > 1, jobs > 1 else { return map(transform) }
        let next = Atomic<Int>(0)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let places = Places(base: buffer.baseAddress!)
            // concurrentPerform runs as many iterations at once as there are cores, whatever `iterations` is: so exactly
            // `workers` iterations, each taking elements until none is left, is what bounds the threads to `jobs`.
            DispatchQueue.concurrentPerform(iterations: Swift.min(count, jobs)) { _ in
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < count else { break }
                    (places.base + index).initialize(to: transform(self[index]))
                }
            }
            initialized = count
        }
    }
}

/// The results' storage, shared by the threads of one `parallelMap`: each writes only the places of the elements it took.
private struct Places<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
}
