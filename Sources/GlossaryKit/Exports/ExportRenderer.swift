import Foundation

/// Renders a build's `SiteExport` files; the three glossary exports share one `GlossaryExport`, made the first time
/// one of them is asked for (a build that changed none of them never makes it).
final class ExportRenderer: @unchecked Sendable {
    let site: BuiltSite
    /// The term pages' definitions in key order.
    let definitions: [TermDefinition]
    private let entryBody: (TermDefinition) -> String?
    private let lock = NSLock()
    private var model: GlossaryExport?

    init(site: BuiltSite, definitions: [TermDefinition], entryBody: @escaping (TermDefinition) -> String?) {
        self.site = site
        self.definitions = definitions
        self.entryBody = entryBody
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
