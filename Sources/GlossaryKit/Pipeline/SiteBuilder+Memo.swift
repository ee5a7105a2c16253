import Foundation

/// The builder's memo points (see `BuildMemo`); without a memo they do exactly what a plain build does.
extension SiteBuilder {
    /// Resolves the referenced terms, reusing this session's earlier resolutions of dictionary terms.
    func resolveTerms(_ resolver: DefinitionResolver, _ keys: [TermKey], team: [TermKey: TermDefinition]) async -> DefinitionResolver.Outcome {
        guard let memo else { return await resolver.resolve(keys, team: team, progress: progress) }
        let context = "\(resolver.options.language)\n\(resolver.cache.directory.path)\n\(resolver.options.maxAgeDays)"
        let (toResolve, known) = memo.keysToResolve(Set(keys), team: team, context: context)
        var outcome = await resolver.resolve(toResolve, team: team, progress: progress)
        memo.remember(outcome.resolutions, team: team)
        for (key, resolution) in known {
            outcome.resolutions[key] = resolution
            if case .defined = resolution { outcome.cached += 1 }
        }
        return outcome
    }
}
