extension SiteBuilder {
    /// The terms a site would look up in the dictionary: every key its pages reference (drafts included, since
    /// they will be published) or its entries' `see_also` names, minus the team's own terms and aliases.
    ///
    /// Built from the same stages as a build, so `glossary cache prune` keeps exactly what a build would use.
    public static func dictionaryTerms(_ source: SiteSource, languages: SiteLanguages, jobs: Int) -> (Set<TermKey>, [Diagnostic]) {
        let results = source.markdownFiles.parallelMap(jobs: jobs) { file -> (PageRecord?, [Diagnostic]) in
            switch FileContents.read(file.path) {
            case .failure(let failure):
                return (nil, [Diagnostic(.readFailed(reason: failure.reason), at: .start(of: file.displayPath))])
            case .success(let data):
                let (parsed, problems) = PageParser.parse(data, file: file, drafts: true, languages: languages)
                return (parsed?.record, problems + (parsed?.record.diagnostics ?? []))
            }
        }
        let records = results.compactMap(\.0)
        let (terms, termProblems) = collectTerms(records)
        let referenced = Set(terms.keys).subtracting(terms.team.keys)
        return (referenced, results.flatMap(\.1) + termProblems)
    }
}
