import GlossaryKit

/// The dictionary client the real command line uses.
enum DefaultFetcher {
    @Sendable static func make(config: SiteConfig, options: BuildOptions) -> (any DefinitionFetcher)? {
        nil
    }
}
