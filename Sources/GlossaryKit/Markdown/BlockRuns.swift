/// A big page's top-level blocks in one run per core, in order: its HTML and its search field are made a run on each
/// core and joined in order (a site of a few big pages has too few of them to keep the cores busy).
///
/// The tree is only read while the runs work: cmark's getters and its HTML renderer read the nodes' fields without
/// caching anything in them (libcmark 0.30).
struct BlockRuns {
    private let runs: [ArraySlice<CMarkNode>]

    /// The top-level blocks of `root` in `jobs` runs; nil when there are fewer blocks than jobs, or one job, where
    /// other pages keep the cores busy beside this one.
    init?(root: CMarkNode, jobs: Int) {
        guard jobs > 1 else { return nil }
        var blocks: [CMarkNode] = []
        var child = root.firstChild
        while let current = child {
            blocks.append(current)
            child = current.next
        }
        guard blocks.count >= jobs else { return nil }
        runs = (0..<jobs).map { blocks[blocks.count * $0 / jobs..<blocks.count * ($0 + 1) / jobs] }
    }

    /// The HTML of the runs, joined in order. cmark ends every block's HTML with a line break and starts a block with
    /// one only where the HTML before doesn't end with one, so the blocks' HTML one after another is the document's.
    /// A worker thread has no current arena, so what cmark allocates there comes from the C allocator.
    func renderHTML() -> BodyHTML {
        nonisolated(unsafe) let shared = runs
        let parts = Array(runs.indices).parallelMap(jobs: runs.count) { index -> [UInt8] in
            var bytes: [UInt8] = []
            for block in shared[index] {
                block.withHTML(options: MarkdownDocument.options) { bytes.append(contentsOf: $0) }
            }
            return bytes
        }
        var html: [UInt8] = []
        html.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { html += part }
        return html.withUnsafeBufferPointer { BodyHTML(marked: $0) }
    }

    /// The search field of the runs' text (`PlainText.searchable`), counted a run on each core and merged in order:
    /// every block's text ends a line, so no term spans two runs, and the field is the one the whole text makes.
    func searchTerms() -> SearchTerms {
        nonisolated(unsafe) let shared = runs
        let parts = Array(runs.indices).parallelMap(jobs: runs.count) { SearchTerms(text: PlainText.searchable(shared[$0])) }
        return SearchTerms(merging: parts)
    }
}
