import Foundation
import Testing

@testable import GlossaryKit

@Suite struct MustacheTemplateTests {
    private func render(_ source: String, _ context: MustacheValue = [:], partials: [String: String] = [:]) throws -> String {
        try MustacheTemplate(source).render(context, partials: try MustachePartials(sources: partials))
    }

    private func parseError(_ source: String, name: String = "t.mustache") -> MustacheError? {
        do {
            _ = try MustacheTemplate(source, name: name)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Sealed objects

    private func fingerprint(_ value: MustacheValue) -> Fingerprint {
        var hasher = FingerprintHasher()
        value.fingerprint(into: &hasher)
        return hasher.finish()
    }

    @Test func aSealedObjectRendersAsItsMembersAndFingerprintsByThem() throws {
        let strings: MustacheObject = ["home": "Home", "search": "Search"]
        let sealed = strings.sealed()
        #expect(try render("{{t.home}} / {{t.search}}", ["t": .object(sealed)]) == "Home / Search")
        #expect(sealed == strings)
        // Its members decide its fingerprint: the same members sealed again agree, other members don't.
        #expect(fingerprint(["t": .object(sealed)]) == fingerprint(["t": .object(MustacheObject(["home": "Home", "search": "Search"]).sealed())]))
        #expect(fingerprint(["t": .object(sealed)]) != fingerprint(["t": .object(MustacheObject(["home": "Home", "search": "Find"]).sealed())]))
        // A member set on a sealed object drops the seal: the object fingerprints as its new members.
        var changed = sealed
        changed["search"] = "Find"
        var unsealed = strings
        unsealed["search"] = "Find"
        #expect(fingerprint(.object(changed)) == fingerprint(.object(unsealed)))
        #expect(fingerprint(.object(changed)) != fingerprint(.object(sealed)))
    }

    // MARK: - Errors

    @Test func unclosedSectionIsReportedAtItsOpeningTag() throws {
        let error = try #require(parseError("<ul>\n  {{#items}}\n    <li>{{name}}</li>\n</ul>\n"))
        #expect(error.line == 2)
        #expect(error.column == 3)
        #expect(error.message == "section 'items' is never closed")
        #expect(error.description == "t.mustache:2:3: error: section 'items' is never closed")
    }

    @Test func mismatchedClosingTagIsReportedAtTheClosingTag() throws {
        let error = try #require(parseError("{{#a}}\n{{#b}}\nx {{/a}}\n{{/b}}"))
        #expect(error.line == 3)
        #expect(error.column == 3)
        #expect(error.message == "closing tag 'a' does not match 'b' opened at 2:1")
    }

    @Test func closingTagWithoutSectionIsAnError() throws {
        let error = try #require(parseError("a\nb {{/x}}"))
        #expect((error.line, error.column) == (2, 3))
    }

    @Test func unclosedTagIsReportedAtItsStart() throws {
        let error = try #require(parseError("Hello\n  {{name\n"))
        #expect((error.line, error.column) == (2, 3))
        #expect(error.message.contains("never closed"))
    }

    @Test func badDelimitersAreAnError() throws {
        let error = try #require(parseError("x {{=<% =}}"))
        #expect((error.line, error.column) == (1, 3))
        #expect(parseError("{{=<% = %>=}}") != nil)
    }

    @Test func unclosedParentAndBlockAreNamedAsSuch() throws {
        #expect(parseError("{{<layout}}")?.message == "parent 'layout' is never closed")
        #expect(parseError("{{$title}}")?.message == "block 'title' is never closed")
    }

    @Test func columnsCountUnicodeScalarsNotBytes() throws {
        let error = try #require(parseError("é ☃ {{#a}}"))
        #expect(error.column == 5)
    }

    @Test func errorsInPartialSourcesNameThePartial() throws {
        #expect(throws: MustacheError(templateName: "footer", line: 1, column: 1, message: "section 'x' is never closed")) {
            try MustachePartials(sources: ["header": "ok", "footer": "{{#x}}"])
        }
    }

    // MARK: - Values

    @Test func jsonBooleansAndNumbersStayApart() throws {
        let json = #"{"yes": true, "no": false, "one": 1, "zero": 0, "half": 0.5, "whole": 2.0, "big": 12345678901234, "nothing": null, "list": [1, "a"]}"#
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let value = MustacheValue(json: object)
        #expect(
            value == [
                "yes": true, "no": false, "one": 1, "zero": 0, "half": 0.5, "whole": .double(2), "big": 12_345_678_901_234,
                "nothing": .null, "list": [1, "a"],
            ])
    }

    @Test func swiftValuesConvertLikeJSON() {
        #expect(MustacheValue(json: true) == .bool(true))
        #expect(MustacheValue(json: 1) == .int(1))
        #expect(MustacheValue(json: 1.25) == .double(1.25))
        #expect(MustacheValue(json: ["a": [false]] as [String: Any]) == ["a": [false]])
        #expect(MustacheValue(json: Date()) == .null)
    }

    @Test func valuesRender() throws {
        #expect(try render("{{a}} {{b}} {{c}} {{d}} {{e}}|", ["a": 85, "b": 1.21, "c": true, "d": .null, "e": [1, 2]]) == "85 1.21 true  |")
    }

    @Test func emptyStringIsFalseyAndZeroIsTruthy() throws {
        #expect(try render("{{#s}}shown{{/s}}{{^s}}hidden{{/s}}", ["s": ""]) == "hidden")
        #expect(try render("{{#n}}shown{{/n}}", ["n": 0]) == "shown")
    }

    // MARK: - Escaping

    @Test func escapesApostrophesToo() throws {
        #expect(try render("{{x}}", ["x": "<a href=\"x\" title='y'>&</a>"]) == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;")
        #expect(try render("{{{x}}}{{&x}}", ["x": "'"]) == "''")
        #expect(try render("{{x}}", ["x": "naïve ☃ 'q'"]) == "naïve ☃ &#39;q&#39;")
        // A combining mark after an escaped character stays, now on the entity.
        #expect(try render("{{x}}", ["x": "&\u{301}x"]) == "&amp;\u{301}x")
    }

    // MARK: - Partials and inheritance

    @Test func nestedStandalonePartialsAddUpIndentation() throws {
        let output = try render(
            "<ul>\n  {{>items}}\n</ul>\n",
            ["items": [["name": "a"], ["name": "b"]]],
            partials: ["items": "{{#items}}\n  {{>item}}\n{{/items}}\n", "item": "<li>\n  {{name}}\n</li>\n"])
        #expect(output == "<ul>\n    <li>\n      a\n    </li>\n    <li>\n      b\n    </li>\n</ul>\n")
    }

    @Test func runawayRecursionStops() throws {
        let output = try render("{{>loop}}", partials: ["loop": "x{{>loop}}"])
        #expect(output == String(repeating: "x", count: MustacheRenderer.maximumDepth))
    }

    @Test func runawayBranchingRecursionStops() throws {
        let output = try render("{{>tree}}", partials: ["tree": "{{>tree}}{{>tree}}."])
        #expect(output.count <= MustacheRenderer.maximumExpansions)
    }

    @Test func blockInsideItsOwnOverrideRendersItsDefault() throws {
        let output = try render(
            "{{<parent}}{{$b}}[{{$b}}default{{/b}}]{{/b}}{{/parent}}",
            partials: ["parent": "<{{$b}}{{/b}}>"])
        #expect(output == "<[default]>")
    }

    @Test func blockBodiesAreReindentedToWhereTheyLand() throws {
        // The example the spec's reindentation rules were proposed with (mustache/spec#131).
        let output = try render(
            "{{<parent}}\n        {{$block}}\n        Hello\n        {{/block}}\n{{/parent}}",
            partials: ["parent": "I say,\n  {{$block}}\n  Hi there!\n  {{/block}}"])
        #expect(output == "I say,\n  Hello\n")
    }

    @Test func blockOverriddenMidLineLosesItsIntrinsicIndentation() throws {
        let output = try render(
            "* a\n* {{<parent}}{{$block}}\n                {{! a big indent }}\n                c{{/block}}{{/parent}}\n* d",
            partials: ["parent": "{{$block}}x{{/block}}"])
        #expect(output == "* a\n* c\n* d")
    }

    @Test func layoutWithBlocks() throws {
        let layout = """
            <html>
              <head><title>{{$title}}Glossary{{/title}}</title></head>
              <body>
                {{$content}}
                {{/content}}
              </body>
            </html>

            """
        let page = """
            {{<layout}}
            {{$title}}{{term}} – Glossary{{/title}}
            {{$content}}
            <h1>{{term}}</h1>
            {{#senses}}
            <p>{{.}}</p>
            {{/senses}}
            {{/content}}
            {{/layout}}

            """
        let output = try render(page, ["term": "Tom & Jerry", "senses": ["one", "two"]], partials: ["layout": layout])
        #expect(
            output == """
                <html>
                  <head><title>Tom &amp; Jerry – Glossary</title></head>
                  <body>
                    <h1>Tom &amp; Jerry</h1>
                    <p>one</p>
                    <p>two</p>
                  </body>
                </html>

                """)
    }

    @Test func oneTemplateRendersManyTimesWithTheSameResult() throws {
        let template = try MustacheTemplate("{{#items}}{{.}},{{/items}}")
        let first = template.render(["items": [1, 2, 3]])
        for _ in 0..<100 {
            #expect(template.render(["items": [1, 2, 3]]) == first)
        }
        #expect(first == "1,2,3,")
    }

    // MARK: - Runaway templates (found by fuzzing: Fuzz/, mustache)

    @Test func sectionsNestedDeeperThanTheLimitAreAnErrorNotAStackOverflow() throws {
        let source = String(repeating: "{{#b}}", count: 20_000) + "x" + String(repeating: "{{/b}}", count: 20_000)
        let error = try #require(parseError(source))
        #expect(error.message == "sections are nested more than 100 levels deep")
        // The 101st opening tag, 6 characters each.
        #expect((error.line, error.column) == (1, 601))
        let deepest = String(repeating: "{{#b}}", count: 100) + "x" + String(repeating: "{{/b}}", count: 100)
        #expect(try render(deepest, ["b": true]) == "x")
    }

    @Test(.timeLimit(.minutes(10)))
    func aListSectionNestedInItselfStopsAtTheSectionLimit() throws {
        // 3^25 bodies without the limit.
        let source = String(repeating: "{{#c}}", count: 25) + "x" + String(repeating: "{{/c}}", count: 25)
        let output = try render(source, ["c": [1, 2, 3]])
        #expect(!output.isEmpty && output.allSatisfy { $0 == "x" })
        #expect(output.count < MustacheRenderer.maximumSectionRenders)
    }

    @Test func aRenderStopsAtItsSectionLimit() throws {
        let template = try MustacheTemplate("{{#c}}{{#c}}{{.}}{{/c}}{{/c}}")
        let limits = MustacheRenderer.Limits(sectionRenders: 5)
        // Bodies 1 (outer, first item), 2–4 (inner), 5 (outer, second item), then the sixth stops it.
        #expect(template.render(["c": [1, 2, 3]], partials: MustachePartials(), limits: limits) == "123")
        #expect(template.render(["c": [1, 2, 3]]) == "123123123")
    }

    @Test func outputThatMultipliesStopsAtTheOutputLimit() throws {
        let template = try MustacheTemplate(String(repeating: "{{#c}}", count: 5) + "abcd" + String(repeating: "{{/c}}", count: 5))
        let limits = MustacheRenderer.Limits(outputBytes: 1000)
        let output = template.render(["c": .array(Array(repeating: 1, count: 10))], partials: MustachePartials(), limits: limits)
        // 10^5 copies of "abcd" without the limit; the text that crosses it is the last written.
        #expect(output == String(repeating: "abcd", count: 251))
    }

    @Test func theOutputLimitHoldsWithinOneIndentedText() throws {
        // A standalone partial indents each of its lines: one text node writes 1,000 lines of 10 bytes.
        let template = try MustacheTemplate("        {{>a}}\n")
        let partials = try MustachePartials(sources: ["a": String(repeating: "x\n", count: 1000)])
        let output = template.render([:], partials: partials, limits: MustacheRenderer.Limits(outputBytes: 100))
        #expect(output == String(repeating: "        x\n", count: 11))
    }
}
