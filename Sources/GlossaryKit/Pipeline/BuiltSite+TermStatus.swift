extension BuiltSite {
    /// A team entry's term status when it is not preferred, with the term to write instead (`use:`): what cards and
    /// the term API say of the term. Nil for a preferred term and for a dictionary's.
    func termStatus(of definition: TermDefinition) -> (status: TermStatus, use: String?)? {
        guard case .team(let index) = definition.origin, index < pages.count else { return nil }
        let metadata = pages[index].page.metadata
        guard let status = metadata.status, status != .preferred else { return nil }
        return (status, metadata.use)
    }
}
