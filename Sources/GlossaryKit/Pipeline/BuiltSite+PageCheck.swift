extension BuiltSite {
    /// The problems a check reports in one published file once the site is read: the file's own, its written
    /// references' (no definition, several senses), its links' (when `paths`, the site's files, are known) and, for a
    /// glossary entry, its `see_also` words' and whether any page uses it.
    ///
    /// Made of the same checks the build runs over every page (`unresolvedDiagnostic`, `ambiguityDiagnostic`,
    /// `brokenLinkDiagnostics(of:)`…), so a page checked alone says what a check of the site says of it. Problems that
    /// concern several files at once (a duplicate term, two pages at one URL) are the caller's.
    public func pageDiagnostics(_ record: PageRecord, paths: Set<String>?, pagesByOutput: [String: PageRecord], offline: Bool) -> [Diagnostic] {
        var diagnostics = record.diagnostics
        for reference in record.allReferences {
            if let unknown = unresolvedDiagnostic(reference, offline: offline) {
                diagnostics.append(unknown)
            } else if let ambiguous = ambiguityDiagnostic(reference) {
                diagnostics.append(ambiguous)
            }
        }
        if record.page.kind == .glossaryEntry {
            diagnostics += seeAlsoDiagnostics(of: record)
            if let unused = unusedTermDiagnostic(of: record) { diagnostics.append(unused) }
        }
        if let paths {
            diagnostics += brokenLinkDiagnostics(of: record, paths: paths, pagesByOutput: pagesByOutput)
            if record.page.kind == .glossaryEntry { diagnostics += seeAlsoLinkDiagnostics(of: record, paths: paths) }
        }
        return diagnostics
    }

    /// Content pages by their output path, for `pageDiagnostics`.
    public var contentPagesByOutput: [String: PageRecord] { pagesByOutput() }
}
