import Foundation
import Synchronization

/// Step: every planned file, fingerprinted from the one value it is made from — a template's context (with the
/// fingerprint of the page's body in its slots' place), the search index's documents, the exports' model, a copied
/// file's bytes — and rendered and handed to the sink unless the sink holds it made from the same value. Nothing
/// beside the value decides whether a file is made again, so whatever a value gains, a change to it remakes the file.
final class RenderStep: Sendable {
    let plan: OutputPlan
    let site: BuiltSite
    let renderer: SiteRenderer
    /// The bodies the load step made, and how to make one it didn't.
    let bodies: PageBodies
    let jobs: Int
    let hook: (@Sendable (String, inout MustacheValue) -> Void)?
    /// The fingerprint of every template a context is rendered with (partials and parents included), and of what
    /// rendering adds beside the context.
    private let templates: Fingerprint
    /// The glossary exports' model, and its fingerprint (`GlossaryExport.fingerprint`): the value all three exports, and
    /// the files for language models, are made from.
    private let exportModel: Shared<(fingerprint: Fingerprint, model: GlossaryExport)>
    /// `sitemap.xml` and, for a sitemap index, its parts.
    private let sitemapFiles: Shared<[String: Data]>
    /// The glossary exports not yet offered: the model is let go after the last (it is as big as they are).
    private let exportsLeft: Mutex<Int>

    init(
        plan: OutputPlan, site: BuiltSite, renderer: SiteRenderer, bodies: PageBodies, jobs: Int, hook: (@Sendable (String, inout MustacheValue) -> Void)? = nil
    ) {
        self.hook = hook
        self.plan = plan
        self.site = site
        self.renderer = renderer
        self.bodies = bodies
        self.jobs = jobs
        var hasher = FingerprintHasher()
        for (name, source) in renderer.theme.templateSources.sorted(by: { $0.key < $1.key }) {
            hasher.combine(name)
            hasher.combine(source)
        }
        hasher.combine(renderer.bodySuffix)
        templates = hasher.finish()
        let definitions = plan.definitions
        let entryBody: @Sendable (TermDefinition) -> String? = { [bodies] in bodies.entryBody($0, site: site) }
        exportModel = Shared {
            let model = GlossaryExport.make(site: site, definitions: definitions, jobs: jobs, entryBody: entryBody)
            return (model.fingerprint(jobs: jobs), model)
        }
        sitemapFiles = Shared { [plan] in Sitemap.files(site: site, definitions: plan.definitions, termIndexes: plan.termIndexes, limit: plan.sitemapLimit) }
        exportsLeft = Mutex(plan.items.count { if case .export(let kind) = $0.content { kind.usesModel } else { false } })
    }

    /// What rendering came to: the paths the sink changed, how many files were rendered or copied, and the files
    /// that could not be written.
    struct Rendered {
        var changed: Set<String>
        var written: Int
        var failures: [OutputFailure]
    }

    /// Renders on every core; a cancelled build stops handing files over and doesn't finish the sink.
    func run(into sink: any OutputSink, cancellation: BuildCancellation) -> Rendered {
        let render = { (items: [OutputPlan.Item]) in
            items.parallelMap(jobs: self.jobs) { item -> (written: Bool, failure: OutputFailure?) in
                if cancellation.isCancelled { return (false, nil) }
                do throws(OutputFailure) {
                    return (try self.offer(item, to: sink), nil)
                } catch {
                    return (false, error)
                }
            }
        }
        let (first, second) = Self.renderOrder(plan.items)
        var results = render(first)
        // The exports' model is made between the halves, on every core: made by one worker, its parallel parts would
        // run on that worker alone (a nested `concurrentPerform` gets one thread) while the others wait for it.
        if exportsLeft.withLock({ $0 }) > 0 && !cancellation.isCancelled { _ = exportModel.value }
        results += render(second)
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

    /// Offers one file to the sink, rendered when the sink doesn't keep it; whether it was written.
    private func offer(_ item: OutputPlan.Item, to sink: any OutputSink) throws(OutputFailure) -> Bool {
        switch item.content {
        case .file(let url, let hash):
            if try sink.keep(item.path, fingerprint: hash) { return false }
            try sink.copy(item.path, from: url, fingerprint: hash)
        case .data(let data):
            try write(item.path, fingerprint: .of(bytes: data), to: sink) { data }
        case .page(let index):
            let record = site.pages[index]
            var context = renderer.pageContext(record)
            hook?(item.path, &context)
            let wrappers = site.wrappers(record)
            let destinations = site.links.destinations(record)
            var hasher = start("page", context)
            hasher.combine(record.contentHash)
            hasher.combine(record.autolink ?? .zero)
            hasher.combineCount(wrappers.count)
            for wrapper in wrappers {
                hasher.combine(wrapper.open)
                hasher.combine(wrapper.close)
            }
            hasher.combineCount(destinations.count)
            for destination in destinations { hasher.combine(destination) }
            let fingerprint = hasher.finish()
            if try sink.keep(item.path, fingerprint: fingerprint) { return false }
            let html = bodies.body(record, wrappers: wrappers, destinations: destinations)
            let (data, slots) = renderer.renderPage(context, body: SiteRenderer.bodyValues(record, html: html))
            try sink.write(item.path, data, fingerprint: fingerprint, slots: slots)
        case .section(let node):
            try template("page", renderer.sectionContext(node), item.path, to: sink)
        case .term(let key):
            guard let definition = site.termPages[key] else { return false }
            // A team's term: its entry's body in the slot's place (`renderTerm`), in the fingerprint too.
            let body = definition.isTeamEntry ? bodies.entryBody(definition, site: site) ?? "" : nil
            var context = renderer.termContext(definition)
            hook?(item.path, &context)
            var hasher = start("term", context)
            if let body { hasher.combine(body) }
            let fingerprint = hasher.finish()
            if try sink.keep(item.path, fingerprint: fingerprint) { return false }
            let (data, slots) = renderer.renderTerm(context, entryBody: body)
            try sink.write(item.path, data, fingerprint: fingerprint, slots: slots)
        case .index(let language):
            guard let index = plan.termIndexes[language] else { return false }
            let definitions = plan.definitions(of: language, in: site.config.siteLanguages)
            try template(
                "terms", index.isPaged ? renderer.indexOverviewContext(index) : renderer.indexContext(definitions, language: language), item.path, to: sink)
        case .indexPage(let language, let page):
            guard let index = plan.termIndexes[language] else { return false }
            try template("terms", renderer.indexPageContext(index, page: page), item.path, to: sink)
        case .search(let language):
            try template("search", renderer.searchContext(language: language), item.path, to: sink)
        case .notFound:
            try template("404", renderer.notFoundContext(), item.path, to: sink)
        case .planned(let data):
            try write(item.path, fingerprint: .of(bytes: data), to: sink) { data }
        case .export(let kind):
            switch kind {
            case .json, .csv, .tbx:
                let (modelFingerprint, model) = exportModel.value
                defer { exportOffered() }
                var hasher = FingerprintHasher()
                hasher.combine(kind.path)
                hasher.combine(modelFingerprint)
                let fingerprint = hasher.finish()
                if try sink.keep(item.path, fingerprint: fingerprint) { return false }
                // Each term's part, by the term's place in the model: what a text edit of an entry replaces.
                try sink.write(item.path, fingerprint: fingerprint) { file in
                    var parts: [MustacheSlots.Written] = []
                    parts.reserveCapacity(model.terms.count)
                    let placed = { (term: Int, start: Int, end: Int) in parts.append(.init(slot: term, escaped: false, start: start, length: end - start)) }
                    switch kind {
                    case .json: GlossaryJSONExport.write(model, into: &file, placed: placed)
                    case .csv: GlossaryCSVExport.write(model, into: &file, placed: placed)
                    default: GlossaryTBXExport.write(model, into: &file, placed: placed)
                    }
                    return MustacheSlots(written: parts, shown: [])
                }
            case .sitemap:
                let data = sitemapFiles.value[item.path] ?? Data()
                try write(item.path, fingerprint: .of(bytes: data), to: sink) { data }
            case .robots:
                let data = Data(RobotsTxt.text(site: site).utf8)
                try write(item.path, fingerprint: .of(bytes: data), to: sink) { data }
            case .llms, .llmsFull:
                let (modelFingerprint, model) = exportModel.value
                defer { exportOffered() }
                if kind == .llms {
                    let data = Data(LLMsText.index(site: site, definitions: plan.definitions, termIndexes: plan.termIndexes, model: model).utf8)
                    try write(item.path, fingerprint: .of(bytes: data), to: sink) { data }
                } else {
                    // Made from every page's text and the glossary's: their fingerprints and the export model stand for them.
                    var hasher = FingerprintHasher()
                    hasher.combine(kind.path)
                    hasher.combine(modelFingerprint)
                    hasher.combine(site.config.title)
                    hasher.combine(site.config.description ?? "")
                    hasher.combineCount(site.config.llmsFullMaxBytes)
                    let root = site.exportRoot
                    hasher.combine(root)
                    let records = site.pages.filter { $0.page.kind == .page }
                    let targets = records.parallelMap(jobs: jobs) { [site] in LLMsText.targets($0, site: site, root: root) }
                    for (record, targets) in zip(records, targets) { combineMarkdown(record, targets: targets, root: root, into: &hasher) }
                    let fingerprint = hasher.finish()
                    if try sink.keep(item.path, fingerprint: fingerprint) { return false }
                    let (data, slots) = LLMsText.full(site: site, definitions: plan.definitions, model: model) { record, document in
                        bodies.markdown(record).map { LLMsText.portable($0, record: record, targets: targets[document]) }
                    }
                    try sink.write(item.path, data, fingerprint: fingerprint, slots: slots)
                }
            }
        case .pageMarkdown(let index):
            let record = site.pages[index]
            let root = site.exportRoot
            let targets = LLMsText.targets(record, site: site, root: root)
            var hasher = FingerprintHasher()
            hasher.combine("page.md")
            combineMarkdown(record, targets: targets, root: root, into: &hasher)
            try write(item.path, fingerprint: hasher.finish(), to: sink) {
                let markdown = bodies.markdown(record).map { LLMsText.portable($0, record: record, targets: targets) }
                return Data(LLMsText.page(record, markdown: markdown ?? "").utf8)
            }
        }
        return true
    }

    /// Lets the export model go once the last file made from it was offered.
    private func exportOffered() {
        let left = exportsLeft.withLock { left in
            left -= 1
            return left
        }
        if left == 0 { exportModel.release() }
    }

    /// What a page's markdown is made from: where it is, its title, its file's bytes, the written references' words
    /// (which `portable` matches the text's with) and where its references and links lead.
    private func combineMarkdown(_ record: PageRecord, targets: LLMsText.Targets, root: String, into hasher: inout FingerprintHasher) {
        hasher.combine(root)
        hasher.combine(record.page.urlPath)
        hasher.combine(record.title)
        hasher.combine(record.startsWithTitleHeading ? "titled" : "untitled")
        hasher.combine(record.contentHash)
        for reference in record.references where !reference.isAutomatic { hasher.combine(reference.key.rawValue) }
        hasher.combineCount(targets.terms.count)
        for url in targets.terms { hasher.combine(url) }
        hasher.combineCount(targets.links.count)
        for url in targets.links { hasher.combine(url) }
    }

    /// A template's output: its context's fingerprint, and the context rendered unless the sink keeps the file.
    private func template(_ name: String, _ context: MustacheValue, _ path: String, to sink: any OutputSink) throws(OutputFailure) {
        var context = context
        hook?(path, &context)
        let fingerprint = start(name, context).finish()
        try write(path, fingerprint: fingerprint, to: sink) { renderer.render(name, context) }
    }

    private func write(_ path: String, fingerprint: Fingerprint, to sink: any OutputSink, _ make: () -> Data) throws(OutputFailure) {
        if try sink.keep(path, fingerprint: fingerprint) { return }
        try sink.write(path, make(), fingerprint: fingerprint, slots: nil)
    }

    private func start(_ template: String, _ context: MustacheValue) -> FingerprintHasher {
        var hasher = FingerprintHasher()
        hasher.combine(template)
        hasher.combine(templates)
        context.fingerprint(into: &hasher)
        return hasher
    }

    /// `items` in the order they are best rendered on every core, in two halves: the few files that each cost as much
    /// as hundreds of pages (the glossary exports, the files for language models, the A–Z index and the sitemap)
    /// start the second half, so that they run beside pages rather than alone after them.
    static func renderOrder(_ items: [OutputPlan.Item]) -> (first: [OutputPlan.Item], second: [OutputPlan.Item]) {
        func rank(_ content: OutputPlan.Content) -> Int? {
            switch content {
            case .export(.json): 0
            case .export(.csv), .export(.tbx), .export(.llms), .export(.llmsFull): 2
            case .index, .export(.sitemap): 3
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
        let half = rest.count / 2
        return (Array(rest[..<half]), ordered + rest[half...])
    }
}
