import Foundation

extension SiteBuilder {
    /// What rendering came to: the paths the sink changed, how many files were rendered or copied, and the
    /// files that could not be written.
    struct Rendered {
        var changed: Set<String>
        var written: Int
        var failures: [OutputFailure]
    }

    /// Stage: every planned output the sink doesn't already hold is rendered (on every core) and handed to it.
    /// A cancelled build stops handing files over and doesn't finish the sink. With `only` (a patch's: the items whose
    /// fingerprints it changed), the sink is known to hold every other item as planned, and only those are offered.
    func render(
        _ plan: OutputPlan, _ site: BuiltSite, _ loaded: LoadedSite, _ theme: Theme, into sink: any OutputSink, only: [Int]? = nil,
        cancellation: BuildCancellation
    ) -> Rendered {
        let renderer = SiteRenderer(site: site, theme: theme, bodySuffix: options.bodySuffix, jobs: options.jobs, searchMemo: state.searchMemo)
        let entryBodies = EntryBodies()
        let items = Self.renderOrder(only.map { $0.map { plan.items[$0] } } ?? plan.items)
        let modelExports = items.count { if case .export(let kind) = $0.content { ExportRenderer.usesModel(kind) } else { false } }
        let exports = ExportRenderer(site: site, definitions: plan.definitions, pending: modelExports) { [self] in
            entryBody($0, site, loaded, entryBodies)
        }
        let results = items.parallelMap(jobs: options.jobs) { item -> (written: Bool, failure: OutputFailure?) in
            if cancellation.isCancelled { return (false, nil) }
            defer { if case .export(let kind) = item.content { exports.done(kind) } }
            do throws(OutputFailure) {
                if try sink.keep(item.path, fingerprint: item.fingerprint) { return (false, nil) }
                switch item.content {
                case .file(let url):
                    try sink.copy(item.path, from: url, fingerprint: item.fingerprint, bytesHash: item.bytesHash ?? .zero)
                    return (true, nil)
                case .data(let data):
                    try sink.write(item.path, data, fingerprint: item.fingerprint, bytesHash: item.bytesHash ?? Fingerprint.of(bytes: data))
                    return (true, nil)
                case .page(let index):
                    let record = site.pages[index]
                    let (data, slots) = renderer.pageWithSlots(record, body: body(record, site, loaded))
                    try sink.write(item.path, data, fingerprint: item.fingerprint, bytesHash: Fingerprint.of(bytes: data), slots: slots)
                    return (true, nil)
                default:
                    let data = bytes(item, plan, site, loaded, renderer, exports, entryBodies)
                    try sink.write(item.path, data, fingerprint: item.fingerprint, bytesHash: Fingerprint.of(bytes: data))
                    return (true, nil)
                }
            } catch {
                return (false, error)
            }
        }
        var failures = results.compactMap(\.failure)
        var changed: Set<String> = []
        if failures.isEmpty && !cancellation.isCancelled {
            do throws(OutputFailure) {
                changed = try sink.finish(paths: plan.paths)
            } catch {
                failures.append(error)
            }
        }
        return Rendered(changed: changed, written: results.filter(\.written).count, failures: failures)
    }

    /// `items` in the order they are best rendered on every core: the few files that each cost as much as hundreds of
    /// pages (the glossary exports, the search index, the A–Z index and its JSON) halfway through the rest, so that they
    /// run beside pages rather than alone after them, and once half the pages' fragments are let go (they would
    /// otherwise add their memory to all the fragments'). The JSON export comes before the search index and the other
    /// two exports after it, since all three wait for the export model its render makes.
    static func renderOrder(_ items: [OutputPlan.Item]) -> [OutputPlan.Item] {
        func rank(_ content: OutputPlan.Content) -> Int? {
            switch content {
            case .export(.json): 0
            case .searchIndex: 1
            case .export(.csv), .export(.tbx): 2
            case .index, .termsJSON, .export(.sitemap): 3
            default: nil
            }
        }
        var heavy: [(rank: Int, item: OutputPlan.Item)] = []
        var rest: [OutputPlan.Item] = []
        rest.reserveCapacity(items.count)
        for item in items {
            if let rank = rank(item.content) { heavy.append((rank, item)) } else { rest.append(item) }
        }
        // A stable sort: items of one rank keep the plan's order.
        let ordered = heavy.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element.item)
        rest.insert(contentsOf: ordered, at: rest.count / 2)
        return rest
    }

    private func bytes(
        _ item: OutputPlan.Item, _ plan: OutputPlan, _ site: BuiltSite, _ loaded: LoadedSite, _ renderer: SiteRenderer, _ exports: ExportRenderer,
        _ entryBodies: EntryBodies
    ) -> Data {
        switch item.content {
        case .page(let index):
            let record = site.pages[index]
            return renderer.page(record, body: body(record, site, loaded))
        case .term(let key):
            guard let definition = site.termPages[key] else { return Data() }
            return renderer.term(definition, entryBody: entryBody(definition, site, loaded, entryBodies))
        case .section(let node): return renderer.section(node)
        case .index: return renderer.index(plan.definitions)
        case .termsJSON: return renderer.termsJSON(plan.definitions)
        case .searchIndex: return renderer.searchFile(item.path, definitions: plan.definitions)
        case .search: return renderer.search()
        case .notFound: return renderer.notFound()
        case .export(let kind): return exports.bytes(kind)
        case .data(let data): return data
        case .file: return Data()
        }
    }

    /// The HTML of a team entry's body (nil for a dictionary term), from the tree parsed this build or the file;
    /// made once a build, since its term page and the exports both show it.
    private func entryBody(_ definition: TermDefinition, _ site: BuiltSite, _ loaded: LoadedSite, _ bodies: EntryBodies) -> String? {
        guard case .team(let index) = definition.origin else { return nil }
        let record = site.pages[index]
        return bodies.html(record.page.contentPath) {
            if let document = loaded.entryDocuments[record.page.contentPath] { return site.fragment(record, document: document) }
            return body(record, site, loaded)
        }
    }

    /// Entry bodies made this build, by path below `content/`. Each is made under a lock of its own: rendering
    /// mutates a document's tree, so one document must never render on two threads at once.
    final class EntryBodies: @unchecked Sendable {
        private final class Slot {
            let lock = NSLock()
            var html: String?
        }
        private let lock = NSLock()
        private var slots: [String: Slot] = [:]

        func html(_ path: String, make: () -> String) -> String {
            let slot = lock.withLock {
                if let slot = slots[path] { return slot }
                let slot = Slot()
                slots[path] = slot
                return slot
            }
            slot.lock.lock()
            defer { slot.lock.unlock() }
            if let html = slot.html { return html }
            let html = make()
            slot.html = html
            return html
        }
    }

    /// A page's body HTML: the fragment made while parsing when its link decisions still hold, else made from
    /// the file again (a page unchanged on disk whose terms or links changed).
    private func body(_ record: PageRecord, _ site: BuiltSite, _ loaded: LoadedSite) -> String {
        let destinations = site.links.destinations(record)
        if let fragment = loaded.fragments.take(record.page.contentPath), fragment.destinations == destinations,
            loaded.fragments.markupIsCurrent(for: record, in: site)
        {
            return fragment.html
        }
        let file = SiteSource.File(
            displayPath: record.page.displayPath, contentPath: record.page.contentPath,
            url: options.source.appendingPathComponent("content", isDirectory: true).appendingPathComponent(record.page.contentPath))
        guard case .success(let data) = FileContents.read(file.path),
            let parsed = PageParser.parse(data, file: file, drafts: true, autolink: loaded.autolink).0, let document = parsed.document
        else { return "" }
        // Normally the same record; if the file changed since it was read, its HTML follows what it says now.
        return site.fragment(parsed.record, document: document)
    }
}
