/// The known entries of a YAML mapping, read with typed accessors that collect diagnostics.
///
/// Unknown keys warn (`unknown-key`, with a "did you mean" for a near miss), repeated keys warn
/// (`duplicate-key`, the last wins, as in other YAML readers), and a value of the wrong type is an
/// error that leaves the caller's default in place. Null values (`key:` with nothing, `~`) read as
/// absent, so they keep the default too.
struct KeyedMapping {
    private(set) var diagnostics: [Diagnostic] = []
    private var values: [String: YAMLNode] = [:]

    /// - Parameter context: where the keys live, for messages: "in glossary.yml", "in front matter".
    init(_ pairs: [YAMLNode.Pair], known: [String], context: String) {
        var firstLocations: [String: SourceLocation] = [:]
        for pair in pairs {
            guard let key = pair.key.scalarValue else {
                diagnostics.append(Diagnostic(.keyNotWord(context: context, found: pair.key.foundDescription), at: pair.key.location))
                continue
            }
            guard known.contains(key) else {
                let suggestion = Self.nearest(to: key, in: known)
                diagnostics.append(Diagnostic(.unknownKey(key: key, context: context, suggestion: suggestion), at: pair.key.location))
                continue
            }
            if let first = firstLocations[key] {
                diagnostics.append(
                    Diagnostic(.duplicateKey(key: key, context: context), at: pair.key.location, notes: [Problem.firstKeyNote(key, at: first)]))
            } else {
                firstLocations[key] = pair.key.location
            }
            values[key] = pair.value
        }
    }

    /// The known keys present with a value that isn't null, and their values (in no particular order).
    var present: [(key: String, value: YAMLNode)] {
        values.compactMap { key, value in value.isNull ? nil : (key, value) }
    }

    /// The value for `key`, or nil when it is absent or null.
    subscript(key: String) -> YAMLNode? {
        guard let value = values[key], !value.isNull else { return nil }
        return value
    }

    /// Reads `key` with one of YAMLNode's typed readers, e.g. `YAMLNode.int(named:)`; nil when
    /// absent, null or ill-typed (the error is recorded).
    mutating func read<T>(_ key: String, _ reader: (YAMLNode) -> (String) throws(Diagnostic) -> T) -> T? {
        guard let node = self[key] else { return nil }
        do {
            return try reader(node)(key)
        } catch {
            diagnostics.append(error)
            return nil
        }
    }

    mutating func string(_ key: String) -> String? { read(key, YAMLNode.string(named:)) }
    mutating func bool(_ key: String) -> Bool? { read(key, YAMLNode.bool(named:)) }
    mutating func int(_ key: String) -> Int? { read(key, YAMLNode.int(named:)) }
    mutating func double(_ key: String) -> Double? { read(key, YAMLNode.double(named:)) }
    mutating func date(_ key: String) -> String? { read(key, YAMLNode.date(named:)) }
    mutating func stringList(_ key: String) -> [String]? { read(key, YAMLNode.stringList(named:)) }
    mutating func stringMapping(_ key: String) -> [(key: String, value: String)]? { read(key, YAMLNode.stringMapping(named:)) }
    mutating func autolinkMode(_ key: String) -> AutolinkMode? { read(key, { node in { name throws(Diagnostic) in try AutolinkMode.read(node, name: name) } }) }

    /// Records a problem found by the caller's own validation (ranges, formats).
    mutating func report(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    /// The known key closest to a misspelt one, if it is at most two edits away.
    static func nearest(to key: String, in known: [String]) -> String? {
        let typed = Array(key.lowercased())
        var best: (key: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= 2, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.key
    }

    /// Levenshtein distance, with one row kept at a time.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
