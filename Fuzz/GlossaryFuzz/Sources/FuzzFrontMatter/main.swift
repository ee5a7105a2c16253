import Dispatch
import Foundation
import FuzzSupport

@testable import GlossaryKit

// A page's front matter (FrontMatter.split, YAMLNode.parse, PageMetadata.decode, through PageMetadata.parse)
// and, on the same bytes, glossary.yml (SiteConfig.load); a dictionary section that loads is then handed to
// the dictionary client, as a build does, against a closed port on loopback. What SimpleYAML reads without
// libyaml must be what libyaml reads, nodes, lines and columns, both as front matter and as a whole file.

let page = "content/page.md"
let config = "glossary.yml"
let byteOrderMark = "\u{FEFF}"

/// What a build does with the section: the client as the command line configures it (`DefaultFetcher`), one
/// word, real libcurl, but a fixed URL on loopback whatever `api` says (port 1: refused at once), no retries.
func fetchOnce(with dictionary: DictionaryConfig) {
    var configuration = DictionaryClient.Configuration(template: DictionaryURLTemplate("http://127.0.0.1:1/{word}")!)
    configuration.concurrency = dictionary.concurrency
    configuration.rateLimitRequests = dictionary.rateLimit.requests
    configuration.rateLimitWindow = Double(dictionary.rateLimit.windowSeconds)
    configuration.timeoutSeconds = dictionary.timeoutSeconds
    configuration.retries = 0
    let client = DictionaryClient(configuration: configuration)
    let done = DispatchSemaphore(value: 0)
    Task {
        _ = await client.fetch([TermKey("word")!], language: "en", progress: { _ in })
        done.signal()
    }
    done.wait()
}

Fuzzer.run { bytes in
    let source = String(decoding: bytes, as: UTF8.self)
    let lines = Checks.lineCount(source, yamlBreaks: true)
    let withoutMark = source.hasPrefix(byteOrderMark) ? String(source.dropFirst()) : source

    // The split gives the page back: the YAML right after the opening line, the body as the rest.
    if let split = try? FrontMatter.split(source, file: page) {
        Fuzzer.expect(withoutMark.hasSuffix(split.body), "the body is not the end of the page")
        let beforeBody = withoutMark.utf8.dropLast(split.body.utf8.count)
        // After a closing line at the very end, the (empty) body is on the line after it.
        let endsWithoutBreak = split.yaml != nil && beforeBody.last != 0x0A && beforeBody.last != 0x0D
        Fuzzer.expect(
            split.bodyFirstLine == Checks.lineCount(String(decoding: beforeBody, as: UTF8.self)) + (endsWithoutBreak ? 1 : 0),
            "body starts on line \(split.bodyFirstLine)")
        if let yaml = split.yaml {
            let firstLineEnd = withoutMark.utf8.firstIndex { $0 == 0x0A || $0 == 0x0D }
            Fuzzer.expect(firstLineEnd != nil, "front matter without an opening line")
            var afterOpening = withoutMark.utf8[firstLineEnd!...].dropFirst()
            if withoutMark.utf8[firstLineEnd!] == 0x0D, afterOpening.first == 0x0A { afterOpening = afterOpening.dropFirst() }
            Fuzzer.expect(afterOpening.starts(with: yaml.utf8), "the YAML does not follow the opening line")
            Fuzzer.expect(split.yamlFirstLine == 2, "YAML starts on line \(split.yamlFirstLine)")
        } else {
            Fuzzer.expect(split.body == withoutMark, "a page without front matter lost text")
        }
    }

    // The reader that skips libyaml agrees with libyaml wherever it reads anything.
    func agreesWithLibyaml(_ yaml: String, lineOffset: Int) {
        guard let simple = SimpleYAML.parse(yaml, file: page, lineOffset: lineOffset) else { return }
        let libyaml = try? YAMLNode.parseWithLibyaml(yaml, file: page, lineOffset: lineOffset)
        Fuzzer.expect(simple == libyaml, "SimpleYAML read \(simple) where libyaml read \(String(describing: libyaml))")
    }
    agreesWithLibyaml(source, lineOffset: 0)
    if let split = try? FrontMatter.split(source, file: page), let yaml = split.yaml { agreesWithLibyaml(yaml, lineOffset: split.yamlFirstLine - 1) }

    let parsed = PageMetadata.parse(source: source, file: page)
    Fuzzer.expect(withoutMark.hasSuffix(parsed.body), "the parsed body is not the end of the page")
    // A closing line without a line break leaves an empty body on the line after it, which the file lacks.
    Fuzzer.expect(
        (1...lines).contains(parsed.bodyFirstLine) || (parsed.body.isEmpty && parsed.bodyFirstLine == lines + 1),
        "body starts on line \(parsed.bodyFirstLine) of \(lines)")
    for diagnostic in parsed.diagnostics { Checks.wellFormed(diagnostic, file: page, lines: lines) }
    for (key, location) in parsed.metadata.locations {
        Fuzzer.expect(location.file == page && (1...lines).contains(location.line) && location.column >= 1, "\(key) at \(location)")
    }
    if let date = parsed.metadata.date { Fuzzer.expect(!date.isEmpty, "an empty date was accepted") }

    let (site, problems) = SiteConfig.load(yaml: source, file: config)
    for diagnostic in problems { Checks.wellFormed(diagnostic, file: config, lines: lines) }
    Fuzzer.expect(site.baseURL.hasSuffix("/"), "base_url \(site.baseURL.debugDescription) does not end with /")
    Fuzzer.expect(!site.theme.isEmpty && !site.theme.contains("/") && site.theme != "..", "theme \(site.theme.debugDescription)")
    Fuzzer.expect(!site.language.isEmpty && !site.language.contains("/"), "language \(site.language.debugDescription)")
    if site.dictionary != DictionaryConfig() { fetchOnce(with: site.dictionary) }
}
