import Foundation

/// The term API: the versioned term index other sites read (`embed.js`, `glossary annotate`), documented in the
/// README ("The term API").
///
/// `terms/api.json` holds every term while the glossary has at most `shardThreshold` of them. A bigger glossary's
/// `terms/api.json` is a manifest naming its shards instead, `terms/api.HEX.json`, one per first character of a
/// term's forms (HEX: that character's Unicode scalar in lower-case hex), so a page loads only the shards of the words
/// it holds. A term is in the shard of each of its forms' first characters. Slugs never hold a `.`, so no term page
/// takes these names.
public struct TermAPI: Sendable {
    /// The version of the schema: raised when a field changes meaning or goes away (new fields don't raise it).
    public static let version = 1
    /// At most this many terms stay in one file (2,000 dictionary terms are about 82 KB gzipped).
    public static let shardThreshold = 2_500
    /// A card's summary is cut after this many characters of text.
    public static let summaryLimit = 200

    public static let manifestPath = "terms/api.json"

    public static func shardPath(_ prefix: Character) -> String {
        "terms/api." + prefix.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: "-") + ".json"
    }

    /// The paths a glossary of `definitions` gets.
    public static func paths(site: BuiltSite, definitions: [TermDefinition]) -> [String] {
        guard definitions.count > shardThreshold else { return [manifestPath] }
        return [manifestPath] + Set(definitions.flatMap { prefixes(forms(of: $0, site: site)) }).sorted().map(shardPath)
    }

    /// Every file of the API, by path.
    public static func files(site: BuiltSite, definitions: [TermDefinition]) -> [String: Data] {
        let root = site.config.address.map { $0.origin + site.href("") }
        var head = "{\"version\":\(version),\"title\":" + JSONWriter.quoted(site.config.title)
        if let root { head += ",\"root\":" + JSONWriter.quoted(root) }
        guard definitions.count > shardThreshold else {
            let terms = definitions.map { record($0, site: site, root: root) }.joined(separator: ",")
            return [manifestPath: Data((head + ",\"terms\":[" + terms + "]}\n").utf8)]
        }
        var shards: [Character: [String]] = [:]
        for definition in definitions {
            let text = record(definition, site: site, root: root)
            for prefix in prefixes(forms(of: definition, site: site)) { shards[prefix, default: []].append(text) }
        }
        var files: [String: Data] = [:]
        var names: [String] = []
        for (prefix, records) in shards.sorted(by: { $0.key < $1.key }) {
            let path = shardPath(prefix)
            names.append(JSONWriter.quoted(String(prefix)) + ":" + JSONWriter.quoted(String(path.dropFirst("terms/".count))))
            files[path] = Data((head + ",\"terms\":[" + records.joined(separator: ",") + "]}\n").utf8)
        }
        files[manifestPath] = Data((head + ",\"shards\":{" + names.joined(separator: ",") + "}}\n").utf8)
        return files
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

    /// The first characters of `forms`, folded as term keys are.
    static func prefixes(_ forms: [String]) -> [Character] {
        forms.compactMap { TermKey($0)?.rawValue.first }.uniqued()
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
