extension DiagnosticLog {
    /// How many diagnostics of one code one file reports before the rest are only counted.
    public static let perFileAndCodeLimit = 20

    /// `diagnostics` with at most `limit` of each code in each file: the last one kept carries a note counting
    /// the rest. One line of 50,000 `[[` would otherwise print 50,000 warnings and bury every other problem.
    /// Diagnostics without a file (network problems, one per word) are all kept.
    public static func capped(_ diagnostics: [Diagnostic], limit: Int = perFileAndCodeLimit) -> [Diagnostic] {
        struct Group: Hashable {
            var file: String
            var code: DiagnosticCode
        }
        var seen: [Group: Int] = [:]
        for diagnostic in diagnostics {
            guard let file = diagnostic.location?.file else { continue }
            seen[Group(file: file, code: diagnostic.code), default: 0] += 1
        }
        guard seen.values.contains(where: { $0 > limit }) else { return diagnostics }
        var kept: [Group: Int] = [:]
        var result: [Diagnostic] = []
        for var diagnostic in diagnostics {
            guard let location = diagnostic.location else {
                result.append(diagnostic)
                continue
            }
            let group = Group(file: location.file, code: diagnostic.code)
            let count = kept[group, default: 0] + 1
            kept[group] = count
            guard count <= limit else { continue }
            if count == limit, let total = seen[group], total > limit {
                diagnostic.notes.append(Problem.moreOfTheSameNote(total - limit, code: diagnostic.code, file: location.file))
            }
            result.append(diagnostic)
        }
        return result
    }
}
