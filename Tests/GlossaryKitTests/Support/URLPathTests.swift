import Testing

@testable import GlossaryKit

/// A path as the site's files are named, written as a URI path once, and read back from a link once.
@Suite struct URLPathTests {
    @Test(arguments: [
        ("terms/kerning/", "terms/kerning/"),
        ("café notes/", "caf%C3%A9%20notes/"),
        ("é/", "%C3%A9/"),
        ("100%/", "100%25/"),
        ("C#/", "C%23/"),
        ("?q/", "%3Fq/"),
        ("a b/", "a%20b/"),
        // A name that looks encoded is a name: decoding the href once must give it back.
        ("a%20b/", "a%2520b/"),
        ("pct%2e%2e/", "pct%252e%252e/"),
        ("a\"b<c>#?/", "a%22b%3Cc%3E%23%3F/"),
        ("x=1&y;z/", "x=1&y;z/"),
        ("a:b@c!$'()*+,~-._/", "a:b@c!$'()*+,~-._/"),
        ("tab\there\u{7F}/", "tab%09here%7F/"),
        ("[x]{y}|\\^`/", "%5Bx%5D%7By%7D%7C%5C%5E%60/"),
    ])
    func pathsArePercentEncodedOnce(path: String, encoded: String) {
        #expect(URLPath.encoded(path) == encoded)
        #expect(URLPath.decoded(encoded) == path)
    }

    @Test(arguments: [
        ("C%23/intro.md", "C#/intro.md"),
        ("my%20page.md", "my page.md"),
        ("%c3%a9/", "é/"),
        ("plain/", "plain/"),
        // Not an escape, or not UTF-8: the link was never encoded, so it is the name as written.
        ("100%/", "100%/"),
        ("50%off", "50%off"),
        ("%FF/", "%FF/"),
    ])
    func linksAreDecodedOnceOrKeptWhenNotEncoded(link: String, path: String) {
        #expect(URLPath.decoded(link) == path)
    }
}
