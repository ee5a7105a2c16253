/// schema.org structured data as JSON-LD, for the `<script type="application/ld+json">` of the glossary index (a
/// `DefinedTermSet` listing every term) and of each term page (a `DefinedTerm` in that set).
///
/// The text is safe inside a script element whatever the terms say: `JSONWriter` writes `<`, `>`, `&`, U+2028 and
/// U+2029 as `\u` escapes, so nothing in it can close the element or open a comment. A JSON-LD block is data, not
/// script: the browser never runs it, so the Content-Security-Policy (which allows inline scripts by hash) has
/// nothing to allow.
enum StructuredData {
    static let context = "https://schema.org"

    /// The glossary index: the set and each of its terms.
    static func termSet(site: BuiltSite, definitions: [TermDefinition], root: String) -> String {
        var members = setMembers(site: site, root: root)
        members.insert(("@context", .string(context)), at: 0)
        if let description = site.config.description { members.append(("description", .string(description))) }
        members.append(("inLanguage", .string(site.config.language)))
        members.append(("hasDefinedTerm", .array(definitions.map { term($0, site: site, root: root, inSet: false) })))
        return JSONWriter.text(.object(members), pretty: false)
    }

    /// A term page: the term and the set it belongs to.
    static func termPage(_ definition: TermDefinition, site: BuiltSite, root: String) -> String {
        guard case .object(var members) = term(definition, site: site, root: root, inSet: true) else { return "{}" }
        members.insert(("@context", .string(context)), at: 0)
        members.append(("inLanguage", .string(site.config.language)))
        return JSONWriter.text(.object(members), pretty: false)
    }

    static func term(_ definition: TermDefinition, site: BuiltSite, root: String, inSet: Bool) -> JSONValue {
        let url = site.exportURL(site.config.siteLanguages.termPath(definition.key), root: root)
        var members: [(key: String, value: JSONValue)] = [
            ("@type", .string("DefinedTerm")),
            ("@id", .string(url)),
            ("name", .string(definition.word)),
            ("url", .string(url)),
            ("termCode", .string(definition.slug)),
        ]
        if let summary = definition.summary, !summary.isEmpty { members.append(("description", .string(summary))) }
        if inSet { members.append(("inDefinedTermSet", .object(setMembers(site: site, root: root)))) }
        return .object(members)
    }

    /// What names the set: its type, id and URL (the index page) and the site's title.
    static func setMembers(site: BuiltSite, root: String) -> [(key: String, value: JSONValue)] {
        let url = site.exportURL("terms/", root: root)
        return [("@type", .string("DefinedTermSet")), ("@id", .string(url)), ("name", .string(site.config.title)), ("url", .string(url))]
    }
}
