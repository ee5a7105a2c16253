import Foundation

/// The term API: the versioned term index other sites read (`embed.js`, `glossary annotate`), documented in the
/// README ("The term API").
///
/// `terms/api.json`, cut as `TermShards` cuts it: every term in one file while it is small, else a manifest naming
/// shards `terms/api.N.json` with the first key of each. A term stands under the keys of its forms (`forms(of:)`), and,
/// for a case-sensitive form ending in a capital other than S, of its plural with `s` (`APIs`), which embed.js
/// matches too; so a page loads only the shards where the words it holds fall.
public struct TermAPI: Sendable {
    /// The version of the schema: raised when a field changes meaning or goes away (new fields don't raise it).
    /// 2: `shards` is a list of `{"file", "first"}` by key range (it was an object by first character).
    public static let version = 2
    /// A card's summary is cut after this many characters of text.
    public static let summaryLimit = 200

    public static let manifestPath = "terms/api.json"

    /// Every file of the API, by path, the manifest first (its records made on `jobs` cores).
    public static func files(
        site: BuiltSite, definitions: [TermDefinition], limits: TermShards.Limits = .standard, jobs: Int = 1
    ) -> [(path: String, data: Data)] {
        let root = site.config.address.map { $0.origin + site.href("") }
        var head = "{\"version\":\(version),\"title\":" + JSONWriter.quoted(site.config.title)
        if let root { head += ",\"root\":" + JSONWriter.quoted(root) }
        let entries = definitions.parallelMap(jobs: jobs) { (record: record($0, site: site, root: root), keys: keys(of: $0, site: site)) }
        return TermShards.files(
            base: "terms/api", entries: entries, limits: limits, file: { head + ",\"terms\":[" + $0.joined(separator: ",") + "]}\n" },
            manifest: { head + ",\"shards\":" + $0 + "}\n" })
    }

    /// The keys a term stands under: its forms', and the plurals embed.js matches of its case-sensitive ones.
    static func keys(of definition: TermDefinition, site: BuiltSite) -> [String] {
        var spellings = forms(of: definition, site: site)
        if definition.caseSensitive {
            spellings += spellings.filter { $0.last.map { $0 != "S" && $0.isASCII && $0.isUppercase } ?? false }.map { $0 + "s" }
        }
        return spellings.compactMap { TermKey($0)?.rawValue }.uniqued()
    }

    /// The spellings that stand for a term, as embed.js matches them: its word, its aliases as written (a dictionary
    /// term's as keys), and the other forms pages referenced it by (`Keyboard`, and `keyboards` → keyboard). Spellings a
    /// case-insensitive term matches alike are one.
    static func names(of definition: TermDefinition, site: BuiltSite) -> (aliases: [String], forms: [String]) {
        let written = GlossaryExport.writtenAliases(definition, site: site)
        let aliases = written.isEmpty ? definition.aliases.map(\.rawValue) : written
        var seen: Set<String> = []
        func fresh(_ form: String) -> Bool {
            seen.insert(definition.caseSensitive ? form : TermKey(form)?.rawValue ?? "").inserted
        }
        _ = fresh(definition.word)
        let keptAliases = aliases.filter(fresh)
        let used = GlossaryExport.forms(definition, site: site) + (site.formsUsed[definition.key] ?? []).map(\.rawValue)
        return (keptAliases, used.filter(fresh))
    }

    static func forms(of definition: TermDefinition, site: BuiltSite) -> [String] {
        let (aliases, forms) = names(of: definition, site: site)
        return [definition.word] + aliases + forms
    }

    static func record(_ definition: TermDefinition, site: BuiltSite, root: String?) -> String {
        // Not HTML-safe quoting: the file is read as JSON only, and `\u003c` would make every summary's tags 6 bytes.
        func quoted(_ text: String) -> String { JSONWriter.quoted(text, htmlSafe: false) }
        let (aliases, forms) = names(of: definition, site: site)
        var json = "{\"key\":" + quoted(definition.key.rawValue)
        json += ",\"word\":" + quoted(definition.word)
        if !aliases.isEmpty { json += ",\"aliases\":[" + aliases.map(quoted).joined(separator: ",") + "]" }
        if !forms.isEmpty { json += ",\"forms\":[" + forms.map(quoted).joined(separator: ",") + "]" }
        if definition.caseSensitive { json += ",\"case_sensitive\":true" }
        if let sense = definition.sense { json += ",\"sense\":" + quoted(sense) }
        if let partOfSpeech = definition.partOfSpeech { json += ",\"part_of_speech\":" + quoted(partOfSpeech) }
        if let phonetic = definition.phonetic { json += ",\"phonetic\":" + quoted(phonetic) }
        if let (status, use) = site.termStatus(of: definition) {
            json += ",\"status\":" + quoted(status.rawValue)
            if let use { json += ",\"use\":" + quoted(use) }
        }
        let page = definition.slug + "/"
        json += ",\"url\":" + quoted(root.map { $0 + "terms/" + page } ?? page)
        // The HTML when there is any, else the plain text: never both (the text is the HTML's).
        let html = definition.summaryHTML.map { SummarySanitizer.html($0, limit: summaryLimit) } ?? ""
        if !html.isEmpty {
            json += ",\"summary_html\":" + quoted(html)
        } else if let summary = definition.summary {
            json += ",\"summary\":" + quoted(SummarySanitizer.plain(summary, limit: summaryLimit))
        }
        return json + "}"
    }
}
