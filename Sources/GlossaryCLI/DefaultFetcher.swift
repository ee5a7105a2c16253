import GlossaryKit

/// The dictionary client the real command line uses: libcurl, configured from `glossary.yml`'s `dictionary`.
enum DefaultFetcher {
    @Sendable static func make(config: SiteConfig, options: BuildOptions) -> (any DefinitionFetcher)? {
        // The build has already put --api-url (or GLOSSARY_API_URL) into the configuration.
        guard !options.offline, let template = DictionaryURLTemplate(config.dictionary.api) else { return nil }
        var configuration = DictionaryClient.Configuration(template: template)
        configuration.concurrency = config.dictionary.concurrency
        configuration.rateLimitRequests = config.dictionary.rateLimit.requests
        configuration.rateLimitWindow = Double(config.dictionary.rateLimit.windowSeconds)
        configuration.timeoutSeconds = config.dictionary.timeoutSeconds
        return DictionaryClient(configuration: configuration)
    }
}
