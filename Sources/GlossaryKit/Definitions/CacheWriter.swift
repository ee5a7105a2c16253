import Dispatch
import Synchronization

/// Stores fetched entries in the background while the fetch goes on.
///
/// A store costs a write, an fsync and a rename — about 2 ms on a virtual disk, so 2,000 words stored one
/// after another would add seconds to a build. Stores therefore run off the fetch loop, on a few lanes at once
/// (the disk merges concurrent fsyncs), and as entries arrive rather than after the last one, so an
/// interrupted build keeps its work. Each key is stored once per build, so lanes never race on one file.
final class CacheWriter: Sendable {
    private let cache: DefinitionCache
    private let lanes: [DispatchQueue]
    private let state = Mutex(State())

    private struct State {
        var next = 0
        var failures: [TermKey: String] = [:]
    }

    init(cache: DefinitionCache, lanes: Int = 8) {
        self.cache = cache
        self.lanes = (0..<max(lanes, 1)).map { DispatchQueue(label: "glossary.cache-writer.\($0)") }
    }

    func store(_ entry: CacheEntry) {
        let lane = state.withLock { state in
            defer { state.next = (state.next + 1) % lanes.count }
            return lanes[state.next]
        }
        lane.async { [self] in
            do throws(DefinitionCache.StoreFailure) {
                try cache.store(entry)
            } catch {
                state.withLock { $0.failures[entry.key] = error.description }
            }
        }
    }

    /// Waits for every queued store; returns why each failed store failed, by key.
    func finish() async -> [TermKey: String] {
        for lane in lanes {
            await withCheckedContinuation { continuation in
                lane.async { continuation.resume() }
            }
        }
        return state.withLock { $0.failures }
    }
}
