import Testing

@testable import GlossaryKit

@Suite struct SiteConfigTests {
    private func load(_ yaml: String) -> (SiteConfig, [String]) {
        let (config, diagnostics) = SiteConfig.load(yaml: yaml, file: "glossary.yml")
        return (config, diagnostics.map(\.description))
    }

    @Test func emptyFileGivesTheDefaults() {
        let (config, diagnostics) = load("")
        #expect(diagnostics == [])
        #expect(config == SiteConfig())
        #expect(config.title == "Glossary")
        #expect(config.baseURL == "/")
        #expect(config.language == "en")
        #expect(config.theme == "default")
        #expect(config.description == nil)
        #expect(config.dictionary.api == "https://api.dictionaryapi.dev/api/v2/entries/{lang}/{word}")
        #expect(config.dictionary.cache == ".glossary/cache")
        #expect(config.dictionary.concurrency == 8)
        #expect(config.dictionary.rateLimit == RateLimit(requests: 450, windowSeconds: 300))
        #expect(config.dictionary.timeoutSeconds == 10)
        #expect(config.dictionary.maxAgeDays == 30)
        #expect(config.dictionary.liveLookup == true)
        #expect(config.dictionary.providers == [.api, .wordNet])
    }

    @Test func readsTheDesignExample() {
        let (config, diagnostics) = load(
            """
            title: A Writer's Glossary
            base_url: /docs                  # deploy under a subpath
            language: fr
            theme: paper
            description: "Words: defined"
            dictionary:
              api: http://127.0.0.1:9000/{lang}/{word}
              cache: cache/defs
              concurrency: 16
              rate_limit: 10/1s
              timeout_seconds: 2.5
              max_age_days: 7
              live_lookup: no

            """)
        #expect(diagnostics == [])
        var expected = SiteConfig()
        expected.title = "A Writer's Glossary"
        expected.baseURL = "/docs/"
        expected.language = "fr"
        expected.theme = "paper"
        expected.description = "Words: defined"
        expected.dictionary.api = "http://127.0.0.1:9000/{lang}/{word}"
        expected.dictionary.cache = "cache/defs"
        expected.dictionary.concurrency = 16
        expected.dictionary.rateLimit = RateLimit(requests: 10, windowSeconds: 1)
        expected.dictionary.timeoutSeconds = 2.5
        expected.dictionary.maxAgeDays = 7
        expected.dictionary.liveLookup = false
        #expect(config == expected)
    }

    @Test(arguments: [
        ("/", "/"), ("/docs", "/docs/"), ("/docs/", "/docs/"), ("https://example.com", "https://example.com/"),
        ("http://example.com/a/", "http://example.com/a/"),
    ])
    func baseURLEndsWithASlash(written: String, normalised: String) {
        let (config, diagnostics) = load("base_url: \(written)\n")
        #expect(diagnostics == [])
        #expect(config.baseURL == normalised)
    }

    @Test func baseURLMustBeAbsolutePathOrHTTP() {
        let (config, diagnostics) = load("base_url: docs/\n")
        #expect(
            diagnostics == [
                "glossary.yml:1:11: error: 'base_url' must start with '/', 'http://' or 'https://', found 'docs/' [config-value]"
            ])
        #expect(config.baseURL == "/")
    }

    @Test func wrongTypeIsAnErrorAtTheValueAndKeepsTheDefault() {
        let (config, diagnostics) = load("title: T\ndictionary:\n  concurrency: eight\n")
        #expect(
            diagnostics == [
                "glossary.yml:3:16: error: 'concurrency' must be an integer, found 'eight' [config-type]"
            ])
        #expect(config.dictionary.concurrency == 8)
        #expect(config.title == "T")
    }

    @Test func unknownKeysWarnWithASuggestionWhenClose() {
        let (config, diagnostics) = load("titel: Words\nfavourite_colour: blue\ndictionary:\n  concurency: 2\n")
        #expect(
            diagnostics == [
                "glossary.yml:1:1: warning: unknown key 'titel' in glossary.yml; did you mean 'title'? [unknown-key]",
                "glossary.yml:2:1: warning: unknown key 'favourite_colour' in glossary.yml [unknown-key]",
                "glossary.yml:4:3: warning: unknown key 'concurency' under 'dictionary' in glossary.yml; did you mean 'concurrency'? [unknown-key]",
            ])
        #expect(config == SiteConfig())
    }

    @Test func suggestionIgnoresCase() {
        let (_, diagnostics) = load("baseURL: /x/\n")
        #expect(
            diagnostics == [
                "glossary.yml:1:1: warning: unknown key 'baseURL' in glossary.yml; did you mean 'base_url'? [unknown-key]"
            ])
    }

    @Test func repeatedKeyWarnsAndTheLastWins() {
        let (config, diagnostics) = load("title: One\ntheme: x\ntitle: Two\n")
        #expect(
            diagnostics == [
                "glossary.yml:3:1: warning: key 'title' is repeated in glossary.yml; the last value is used [duplicate-key]"
            ])
        #expect(config.title == "Two")
    }

    @Test func outOfRangeValuesAreErrors() {
        let (config, diagnostics) = load(
            """
            dictionary:
              concurrency: 0
              timeout_seconds: 0
              max_age_days: -1
              rate_limit: 0/5m
              api: https://example.com/define

            """)
        #expect(
            diagnostics == [
                "glossary.yml:2:16: error: 'concurrency' must be between 1 and 256, found '0' [config-value]",
                "glossary.yml:3:20: error: 'timeout_seconds' must be more than 0 and at most 600 (seconds), found '0' [config-value]",
                "glossary.yml:4:17: error: 'max_age_days' must be from 0 to 3650000 (days), found '-1' [config-value]",
                "glossary.yml:5:15: error: 'rate_limit' must allow from 1 to 1000000 requests in a window from 1 second to 24 hours, found '0/5m' [config-value]",
                "glossary.yml:6:8: error: 'api' must contain '{word}', where the looked-up word goes, found 'https://example.com/define' [config-value]",
            ])
        #expect(config.dictionary == DictionaryConfig())
    }

    @Test func llmsIsTrueFalseOrPages() {
        #expect(load("title: T\n").0.llms == .files)
        #expect(load("llms: true\n").0.llms == .files)
        #expect(load("llms: false\n").0.llms == .off)
        #expect(load("llms: pages\n").0.llms == .pages)
        #expect(load("llms_full_max_bytes: 2048\n").0.llmsFullMaxBytes == 2048)
        let (config, diagnostics) = load("title: T\nllms: maybe\nllms_full_max_bytes: 10\n")
        #expect(
            diagnostics == [
                "glossary.yml:2:7: error: 'llms' must be true, false or pages, found 'maybe' [config-value]",
                "glossary.yml:3:22: error: 'llms_full_max_bytes' must be at least 100, found '10' [config-value]",
            ])
        #expect(config.llms == .files && config.llmsFullMaxBytes == 10_000_000)
    }

    @Test func termsPerPageIsAtLeastOne() {
        #expect(load("title: T\n").0.termsPerPage == 500)
        #expect(load("terms_per_page: 3\n").0.termsPerPage == 3)
        let (config, diagnostics) = load("title: T\nterms_per_page: 0\n")
        #expect(diagnostics == ["glossary.yml:2:17: error: 'terms_per_page' must be at least 1, found '0' [config-value]"])
        #expect(config.termsPerPage == 500)
    }

    @Test func concurrencyAboveTheLimitIsAnError() {
        let (_, diagnostics) = load("dictionary:\n  concurrency: 257\n")
        #expect(
            diagnostics == [
                "glossary.yml:2:16: error: 'concurrency' must be between 1 and 256, found '257' [config-value]"
            ])
        #expect(load("dictionary:\n  concurrency: 256\n").1 == [])
    }

    /// Values that would overflow the client's arithmetic (milliseconds in 64 bits, libcurl's longs) are refused
    /// here, before anything runs.
    static let timeoutRange = "'timeout_seconds' must be more than 0 and at most 600 (seconds)"
    static let rateLimitRange = "'rate_limit' must allow from 1 to 1000000 requests in a window from 1 second to 24 hours"

    @Test(arguments: [
        ("timeout_seconds: 1e300", "glossary.yml:2:20: error: \(timeoutRange), found '1e300' [config-value]"),
        ("timeout_seconds: 600.5", "glossary.yml:2:20: error: \(timeoutRange), found '600.5' [config-value]"),
        ("timeout_seconds: -0", "glossary.yml:2:20: error: \(timeoutRange), found '-0' [config-value]"),
        ("timeout_seconds: .inf", "glossary.yml:2:20: error: 'timeout_seconds' must be a number, found '.inf' [config-type]"),
        ("timeout_seconds: nan", "glossary.yml:2:20: error: 'timeout_seconds' must be a number, found 'nan' [config-type]"),
        ("rate_limit: 1/2562047788015215h", "glossary.yml:2:15: error: \(rateLimitRange), found '1/2562047788015215h' [config-value]"),
        ("rate_limit: 1000001/1s", "glossary.yml:2:15: error: \(rateLimitRange), found '1000001/1s' [config-value]"),
        ("max_age_days: 3650001", "glossary.yml:2:17: error: 'max_age_days' must be from 0 to 3650000 (days), found '3650001' [config-value]"),
    ])
    func valuesBeyondWhatTheClientCanUseAreErrors(line: String, expected: String) {
        let (config, diagnostics) = load("dictionary:\n  \(line)\n")
        #expect(diagnostics == [expected])
        #expect(config.dictionary == DictionaryConfig())
        #expect(load("dictionary:\n  timeout_seconds: 600\n  rate_limit: 1000000/24h\n  max_age_days: 3650000\n").1 == [])
    }

    /// Refused at glossary.yml, before any word is asked: an API that isn't http(s), and a cache folder that a build
    /// or `glossary cache prune` would share with the site's own files.
    static let cacheOwn = "'cache' must be a folder of its own below the site's folder, not"

    @Test(arguments: [
        ("api: ftp://x/{lang}/{word}", "glossary.yml:2:8: error: 'api' must be an http:// or https:// URL, found 'ftp://x/{lang}/{word}' [config-value]"),
        ("api: file:///etc/{word}", "glossary.yml:2:8: error: 'api' must be an http:// or https:// URL, found 'file:///etc/{word}' [config-value]"),
        ("api: http:///{word}", "glossary.yml:2:8: error: 'api' must be an http:// or https:// URL, found 'http:///{word}' [config-value]"),
        ("cache: .", "glossary.yml:2:10: error: \(cacheOwn) the site's folder itself, found '.' [config-value]"),
        ("cache: /", "glossary.yml:2:10: error: \(cacheOwn) the site's folder itself, found '/' [config-value]"),
        ("cache: ..", "glossary.yml:2:10: error: \(cacheOwn) a folder holding the site, found '..' [config-value]"),
        ("cache: content", "glossary.yml:2:10: error: \(cacheOwn) inside content/, found 'content' [config-value]"),
        ("cache: ./themes/cache", "glossary.yml:2:10: error: \(cacheOwn) inside themes/, found './themes/cache' [config-value]"),
        ("cache: site", "glossary.yml:2:10: error: \(cacheOwn) inside site/, found 'site' [config-value]"),
        ("cache: .glossary", "glossary.yml:2:10: error: \(cacheOwn) .glossary/ itself, found '.glossary' [config-value]"),
        ("cache: .glossary/build/x", "glossary.yml:2:10: error: \(cacheOwn) inside .glossary/build/, found '.glossary/build/x' [config-value]"),
    ])
    func anAPIThatIsNotHTTPAndACacheOverlappingTheSiteAreErrors(line: String, expected: String) {
        let (config, diagnostics) = load("dictionary:\n  \(line)\n")
        #expect(diagnostics == [expected])
        #expect(config.dictionary == DictionaryConfig())
    }

    @Test func cacheFoldersOfTheirOwnAndHTTPAPIsAreAccepted() {
        for line in ["cache: .glossary/cache", "cache: cache", "cache: ../shared-cache", "cache: content-cache", "api: HTTP://127.0.0.1:8080/{word}"] {
            #expect(load("dictionary:\n  \(line)\n").1 == [], "\(line)")
        }
    }

    @Test func providersAreReadInOrder() {
        #expect(load("dictionary:\n  providers: [wordnet, api]\n").0.dictionary.providers == [.wordNet, .api])
        #expect(load("dictionary:\n  providers: wordnet\n").0.dictionary.providers == [.wordNet])
        #expect(load("dictionary:\n  providers: []\n").0.dictionary.providers == [])
        #expect(load("dictionary:\n  providers:\n    - api\n").0.dictionary.providers == [.api])
    }

    @Test func unknownOrRepeatedProvidersAreErrorsAtTheirPlace() {
        let (config, diagnostics) = load("dictionary:\n  providers: [api, wiktionary, api]\n")
        #expect(
            diagnostics == [
                "glossary.yml:2:20: error: 'providers' lists the dictionaries to ask, each 'api' or 'wordnet', found 'wiktionary' [config-value]",
                "glossary.yml:2:32: error: 'providers' names each dictionary once, found 'api' [config-value]",
            ])
        #expect(config.dictionary.providers == [.api, .wordNet], "the default is kept")
        #expect(
            load("dictionary:\n  providers: {api: 1}\n").1 == [
                "glossary.yml:2:14: error: 'providers' must be a list of strings, found a mapping [config-type]"
            ])
    }

    @Test func malformedRateLimitIsATypeError() {
        let (config, diagnostics) = load("dictionary:\n  rate_limit: abc\n")
        #expect(
            diagnostics == [
                "glossary.yml:2:15: error: 'rate_limit' must be requests per window like 450/5m (window in s, m or h), found 'abc' [config-type]"
            ])
        #expect(config.dictionary.rateLimit == RateLimit(requests: 450, windowSeconds: 300))
    }

    @Test func bareSecondsRateLimit() {
        #expect(
            load("dictionary:\n  rate_limit: 100/60\n").0.dictionary.rateLimit
                == RateLimit(requests: 100, windowSeconds: 60))
    }

    @Test func themeMustNotLeaveTheThemesFolder() {
        let (config, diagnostics) = load("theme: ../secrets\n")
        #expect(
            diagnostics == [
                "glossary.yml:1:8: error: 'theme' must be the name of a folder in themes/, found '../secrets' [config-value]"
            ])
        #expect(config.theme == "default")
    }

    @Test func nullValuesKeepTheDefaults() {
        let (config, diagnostics) = load("title:\ndictionary:\n")
        #expect(diagnostics == [])
        #expect(config == SiteConfig())
    }

    @Test func dictionaryMustBeAMapping() {
        let (_, diagnostics) = load("dictionary: [a]\n")
        #expect(
            diagnostics == [
                "glossary.yml:1:13: error: 'dictionary' must be a mapping of keys to values, found a list [config-type]"
            ])
    }

    @Test func topLevelMustBeAMapping() {
        let (_, diagnostics) = load("- title\n")
        #expect(
            diagnostics == [
                "glossary.yml:1:1: error: glossary.yml must be a mapping of keys to values, found a list [config-type]"
            ])
    }

    @Test func badYAMLIsOneErrorAndTheDefaults() {
        let (config, diagnostics) = load("title: ok\ndictionary:\n  api: [x\n")
        #expect(
            diagnostics == [
                "glossary.yml:4:1: error: did not find expected ',' or ']' [yaml-syntax]"
            ])
        #expect(config == SiteConfig())
    }

    @Test func problemsAreReportedInDocumentOrder() {
        let (_, diagnostics) = load("language: ''\ntitle: [x]\n")
        #expect(
            diagnostics == [
                "glossary.yml:1:11: error: 'language' must be a language code like 'en', found the string \"\" [config-value]",
                "glossary.yml:2:8: error: 'title' must be a string, found a list [config-type]",
            ])
    }

    @Test(arguments: ["..", "../x", "en/gb", ".hidden", "a\\b"])
    func aLanguageCannotBeAPathOutOfTheCache(_ language: String) {
        let (config, diagnostics) = load("language: '\(language)'\n")
        #expect(config.language == "en")
        #expect(diagnostics.count == 1 && diagnostics[0].contains("'language' must be a language code like 'en'"), "\(diagnostics)")
    }
}
