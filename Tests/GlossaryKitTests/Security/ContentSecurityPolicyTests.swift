import Testing

@testable import GlossaryKit

@Suite struct ContentSecurityPolicyTests {
    @Test func theDefaultSitesPolicy() {
        let policy = ContentSecurityPolicy(config: SiteConfig(), inlineScriptsIn: "<script>abc</script>\n")
        #expect(
            policy.text
                == "default-src 'none'; script-src 'self' 'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='; style-src 'self'; "
                + "img-src 'self' https: data:; media-src 'self' https:; connect-src 'self' https://api.dictionaryapi.dev; "
                + "font-src 'self'; form-action 'self'; base-uri 'self'; object-src 'none'")
    }

    @Test func withoutLiveLookupScriptsConnectOnlyToTheSite() {
        var config = SiteConfig()
        config.dictionary.liveLookup = false
        let policy = ContentSecurityPolicy(config: config, inlineScriptsIn: "")
        #expect(policy.connectSources.isEmpty)
        #expect(policy.text.contains("; connect-src 'self'; "))
        #expect(policy.text.contains("; script-src 'self'; "))
    }

    @Test(arguments: [
        ("https://api.dictionaryapi.dev/api/v2/entries/{lang}/{word}", "https://api.dictionaryapi.dev"),
        ("http://127.0.0.1:8081/api/v2/entries/{lang}/{word}", "http://127.0.0.1:8081"),
        ("HTTPS://user:secret@Dict.Example.ORG:8443/{word}?lang={lang}", "https://dict.example.org:8443"),
        ("https://example.org?q={word}", "https://example.org"),
        ("https://example.org:/{word}", "https://example.org"),
        ("https://{lang}.wiktionary.example/{word}", "https:"),
        ("http://[::1]:8080/{word}", "http:"),
        ("https://evil.example; script-src *; x/{word}", "https:"),
        ("https://a..b/{word}", "https:"),
    ])
    func theAPIsOriginIsAPlainSource(_ template: String, _ source: String) {
        #expect(ContentSecurityPolicy.source(ofURLTemplate: template) == source)
    }

    @Test(arguments: ["file:///srv/dictionary/{word}.json", "ftp://example.org/{word}", "{word}", "javascript://x/{word}"])
    func otherSchemesAreNotAllowed(_ template: String) {
        #expect(ContentSecurityPolicy.source(ofURLTemplate: template) == nil)
    }

    @Test func inlineScriptsAreFoundAsTheBrowserReadsThem() {
        let html = """
            <script>one()</script><script src="/a.js"></script><SCRIPT type="text/javascript">two()\r\nthree()\rfour()</SCRIPT>
            <scripts>not a script</scripts><script data-note="a > b" data-src="x">five()</script><script
            defer>six()</script><script src=/b.js></script><script>unclosed
            """
        #expect(ContentSecurityPolicy.inlineScripts(in: html) == ["one()", "two()\nthree()\nfour()", "five()", "six()", "unclosed"])
    }

    /// JSON-LD is a data block: the browser never runs it, so a policy doesn't list it (and a theme that puts
    /// structured data in its head-script keeps one policy for every page). Scripts of any other type keep theirs.
    @Test func jsonDataBlocksAreNotHashed() {
        let html = """
            <script type="application/ld+json">{"@type":"DefinedTerm"}</script><script type='Application/JSON; charset=utf-8'>{}</script>
            <script type=module>m()</script><script type="importmap">{"imports":{}}</script><script type="text/json-ish">x</script>
            <script type="application/ld+json" type="text/javascript">first type wins</script>
            """
        #expect(ContentSecurityPolicy.inlineScripts(in: html) == ["m()", "{\"imports\":{}}", "x"])
    }

    @Test func eachDistinctScriptIsHashedOnce() {
        let policy = ContentSecurityPolicy(inlineScripts: ["abc", "abc", ""], connectSources: [])
        #expect(policy.scriptHashes == ["'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='", "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"])
    }

    @Test func theMemoGivesWhatThePolicyWould() {
        let memo = ContentSecurityPolicy.Memo()
        let config = SiteConfig()
        for html in ["<script>a</script>", "<script>b</script>", "<script>a</script>", ""] {
            #expect(memo.text(config: config, inlineScriptsIn: html) == ContentSecurityPolicy(config: config, inlineScriptsIn: html).text)
        }
    }
}
