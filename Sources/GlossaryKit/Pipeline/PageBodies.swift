import Foundation
import Synchronization

/// The bodies of the markdown files the load step parsed, as markdown made them (`BodyHTML`, with the destinations
/// their links were written with), for the render step to fill with the site's term links. A page whose body isn't
/// here, or was made with other destinations, is read and parsed again.
final class PageBodies: Sendable {
    private let made = Mutex<[String: (body: BodyHTML, destinations: [String?])]>([:])
    /// Files found gone or changed when read again, since their records were made (an editor's save, a checkout, while
    /// the site was built): their pages can't be made as the records say, so the build fails.
    private let changed = Mutex<[Diagnostic]>([])
    /// Glossary entries' bodies once filled, by path below `content/`: a term's page and the exports show them.
    private let entries = Mutex<[String: String]>([:])
    private let contentFolder: URL
    private let autolink: AutolinkSettings?
    private let languages: SiteLanguages

    init(contentFolder: URL, autolink: AutolinkSettings?, languages: SiteLanguages) {
        self.contentFolder = contentFolder
        self.autolink = autolink
        self.languages = languages
    }

    func add(_ body: BodyHTML, destinations: [String?], for contentPath: String) {
        made.withLock { $0[contentPath] = (body, destinations) }
    }

    /// A content page's body HTML with `wrappers` in its slots, its links written as `destinations` (each page's is
    /// asked for once, and let go).
    func body(_ record: PageRecord, wrappers: [MarkdownDocument.Wrapper], destinations: [String?]) -> String {
        if let made = made.withLock({ $0.removeValue(forKey: record.page.contentPath) }), made.destinations == destinations {
            return made.body.filled(with: wrappers)
        }
        return reparsed(record, destinations: destinations)?.filled(with: wrappers) ?? ""
    }

    /// A team entry's body HTML, filled with the site's term links.
    func entryBody(_ definition: TermDefinition, site: BuiltSite) -> String? {
        guard case .team(let index) = definition.origin else { return nil }
        let record = site.pages[index]
        let path = record.page.contentPath
        if let known = entries.withLock({ $0[path] }) { return known }
        let destinations = site.links.destinations(record)
        let made = made.withLock { $0[path] }
        let body = made.flatMap { $0.destinations == destinations ? $0.body : nil } ?? reparsed(record, destinations: destinations)
        let html = body?.filled(with: site.wrappers(record)) ?? ""
        entries.withLock { $0[path] = html }
        return html
    }

    /// A content page's markdown below its front matter, as the record was made from it (nil, with a problem, when the
    /// file is no longer that one).
    func markdown(_ record: PageRecord) -> String? {
        guard let (file, data) = source(record) else { return nil }
        return Self.markdown(of: data, file: file.displayPath)
    }

    /// A markdown file's text below its front matter.
    static func markdown(of data: Data, file: String) -> String {
        let text = String(decoding: data, as: UTF8.self)
        return (try? FrontMatter.split(text, file: file))?.body ?? text
    }

    /// The problems of the files that were gone or had changed when read again.
    var problems: [Diagnostic] { changed.withLock { $0 } }

    /// The file the record was read from and its bytes; nil, with a problem, when the file is no longer the one the
    /// record was made from.
    private func source(_ record: PageRecord) -> (SiteSource.File, Data)? {
        let file = SiteSource.File(
            displayPath: record.page.displayPath, contentPath: record.page.contentPath,
            url: contentFolder.appendingPathComponent(record.page.contentPath, isDirectory: false))
        switch FileContents.read(file.path) {
        case .success(let bytes) where Fingerprint.of(bytes: bytes) == record.contentHash:
            return (file, bytes)
        case .success:
            report(Diagnostic(.readFailed(reason: "it changed while the site was built"), at: .start(of: file.displayPath)))
            return nil
        case .failure(let failure):
            report(Diagnostic(.readFailed(reason: failure.reason), at: .start(of: file.displayPath)))
            return nil
        }
    }

    /// Records a file's problem once, however many outputs read the file (its page, `llms-full.txt`, its markdown).
    private func report(_ problem: Diagnostic) {
        changed.withLock { problems in
            if !problems.contains(where: { $0.location == problem.location }) { problems.append(problem) }
        }
    }

    /// The body of the file the record was read from, parsed again; nil, with a problem, when the file is no longer the
    /// one the record was made from.
    private func reparsed(_ record: PageRecord, destinations: [String?]) -> BodyHTML? {
        guard let (file, data) = source(record) else { return nil }
        guard let parsed = PageParser.parse(data, file: file, drafts: true, autolink: autolink, languages: languages).0, let document = parsed.document,
            document.links.count == destinations.count, document.references.count == record.references.count
        else { return nil }
        return document.renderBody(destinations: destinations)
    }
}
