import Foundation

/// A glossary's term API as `glossary annotate` reads it (`TermAPI` writes it): every term with its page's absolute
/// URL, found by any of its spellings as the build folds them.
public struct TermIndex: Sendable {
    public struct Term: Sendable, Equatable {
        public var key: String
        public var url: String
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The file is not the term API (not JSON, another version, fields of the wrong type).
        case unreadable(String)
        /// A term's URL is relative and there is no address to resolve it against.
        case relativeURLs

        public var description: String {
            switch self {
            case .unreadable(let reason): reason
            case .relativeURLs: "its term URLs are relative (build it with site: set, or give its URL)"
            }
        }
    }

    /// The glossary's title, and its root URL (where `embed.js` is).
    public var title: String
    public var root: String
    /// Every spelling of every term as plain text matches it (`glossary annotate --autolink`), by the term's key.
    public private(set) var forms: [TermMatcher<String>.Form] = []
    private var byKey: [TermKey: Term] = [:]

    private struct File: Decodable {
        var version: Int
        var title: String?
        var root: String?
        var terms: [Entry]?
        var shards: Shards?
    }

    /// A manifest's shards: by key range since version 2, by first character (`{"k": "api.6b.json"}`) in version 1.
    private struct Shards: Decodable {
        var files: [String]

        private struct Shard: Decodable {
            var file: String
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let ranges = try? container.decode([Shard].self) {
                files = ranges.map(\.file)
            } else {
                files = try container.decode([String: String].self).values.sorted()
            }
        }
    }

    private struct Entry: Decodable {
        var key: String
        var word: String
        var aliases: [String]?
        var forms: [String]?
        var url: String
        var caseSensitive: Bool?

        enum CodingKeys: String, CodingKey {
            case key, word, aliases, forms, url
            case caseSensitive = "case_sensitive"
        }
    }

    /// Reads the manifest at `address` (a URL, or nil for files read from a folder) and every shard it names;
    /// `read` gives a file's bytes by its path relative to the manifest's folder (`api.json`, `api.0.json`).
    public init(address: URL?, read: (String) async throws -> Data) async throws {
        let manifest = try Self.decode(try await read("api.json"), name: "api.json")
        title = manifest.title ?? "Glossary"
        let base = address ?? manifest.root.flatMap { URL(string: $0 + "terms/api.json") }
        guard let root = manifest.root ?? address.flatMap({ URL(string: "../", relativeTo: $0)?.absoluteString }) else {
            throw Failure.relativeURLs
        }
        self.root = root
        var entries = manifest.terms ?? []
        for name in (manifest.shards?.files ?? []).uniqued() where !name.contains("/") {
            entries += try Self.decode(try await read(name), name: name).terms ?? []
        }
        // A term stands in the shard of each of its forms' keys: it is read once.
        var seen: Set<String> = []
        for entry in entries where seen.insert(entry.key).inserted {
            guard let url = URL(string: entry.url, relativeTo: base)?.absoluteURL, let scheme = url.scheme, ["http", "https"].contains(scheme)
            else { throw Failure.relativeURLs }
            let term = Term(key: entry.key, url: url.absoluteString)
            // A reference names its term in any case, as the build's `[[word]]` does (case_sensitive is for matching
            // plain text).
            for name in [entry.key, entry.word] + (entry.aliases ?? []) + (entry.forms ?? []) {
                if let key = TermKey(name) { byKey[key] = byKey[key] ?? term }
            }
            for name in [entry.word] + (entry.aliases ?? []) + (entry.forms ?? []) {
                forms.append(.init(name, id: entry.key, caseSensitive: entry.caseSensitive == true))
            }
        }
    }

    /// The term a written word stands for: any of its spellings, folded as a term key.
    public func term(for word: String) -> Term? { TermKey(word).flatMap { byKey[$0] } }

    private static func decode(_ data: Data, name: String) throws -> File {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw Failure.unreadable("\(name) is not a term index")
        }
        // Version 2 changed only the shards' shape, which both versions' files are read in.
        guard (1...TermAPI.version).contains(file.version) else {
            throw Failure.unreadable("\(name) is version \(file.version), not 1 to \(TermAPI.version)")
        }
        return file
    }
}
