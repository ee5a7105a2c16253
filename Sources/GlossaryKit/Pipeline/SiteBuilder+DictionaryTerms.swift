extension SiteBuilder {
    /// The terms a site would look up in the dictionary: every key its pages reference (drafts included, since
    /// they will be published) or its entries' `see_also` names, minus the team's own terms and aliases.
    ///
    /// Built from the same stages as a build, so `glossary cache prune` keeps exactly what a build would use.
    public static func dictionaryTerms(_ source: SiteSource, jobs: Int) -> (Set<TermKey>, [Diagnostic]) {
        let (pages, pageProblems) = loadPages(source, drafts: true, jobs: jobs)
        let (team, teamProblems) = teamDefinitions(pages)
        let seeAlso = team.values.flatMap(\.seeAlso).compactMap(TermKey.init)
        let referenced = Set(collectReferences(pages).keys).union(seeAlso).subtracting(team.keys)
        return (referenced, pageProblems + teamProblems)
    }
}
