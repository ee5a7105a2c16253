import Foundation

/// Renders a build's `SiteExport` files; the three glossary exports share one `GlossaryExport`, made the first time
/// one of them is asked for (a build that changed none of them never makes it), and let go once the last of them is
/// done (it is as big as the exports, and the rest of the site renders after them).
final class ExportRenderer: @unchecked Sendable {
    let site: BuiltSite
    /// The term pages' definitions in key order.
    let definitions: [TermDefinition]
    private let entryBody: (TermDefinition) -> String?
    private let lock = NSLock()
    private var model: GlossaryExport?
    /// The glossary exports of this render not yet done (rendered or kept).
    private var pending: Int

    /// `pending`: how many of the glossary exports this render offers the sink.
    init(site: BuiltSite, definitions: [TermDefinition], pending: Int, entryBody: @escaping (TermDefinition) -> String?) {
        self.site = site
        self.definitions = definitions
        self.pending = pending
        self.entryBody = entryBody
    }

    /// Whether the export shares the export model.
    static func usesModel(_ kind: SiteExport) -> Bool {
        switch kind {
        case .json, .csv, .tbx: true
        case .sitemap, .robots: false
        }
    }

    /// Tells that the export of `kind` is done: after the last glossary export, the model is let go.
    func done(_ kind: SiteExport) {
        guard Self.usesModel(kind) else { return }
        lock.withLock {
            pending -= 1
            if pending <= 0 { model = nil }
        }
    }

    func bytes(_ kind: SiteExport) -> Data {
        switch kind {
        case .json: GlossaryJSONExport.data(export())
        case .csv: GlossaryCSVExport.data(export())
        case .tbx: GlossaryTBXExport.data(export())
        case .sitemap: Data(Sitemap.text(site: site, definitions: definitions).utf8)
        case .robots: Data(RobotsTxt.text(site: site).utf8)
        }
    }

    /// The export model; held under the lock while it is made, so concurrent renders of two exports make it once.
    func export() -> GlossaryExport {
        lock.lock()
        defer { lock.unlock() }
        if let model { return model }
        let made = GlossaryExport.make(site: site, definitions: definitions, entryBody: entryBody)
        model = made
        return made
    }
}
