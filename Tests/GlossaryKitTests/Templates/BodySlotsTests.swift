import Foundation
import Testing

@testable import GlossaryKit

/// A page rendered with one body, its slots filled with another, is the page rendered with the other — for every way a
/// template can show or test a value — and a template that could show something else refuses the splice.
@Suite struct BodySlotsTests {
    /// Every way a template meets the body's values: written escaped or not, tested by a section or an inverted one,
    /// pushed by a section and written as `.`, inside a partial standing alone on an indented line, inside a parent's
    /// block; and text and other values around them.
    static let pieces = [
        "<p>text</p>\n", "{{{page.content}}}", "{{page.content}}", "{{{page.body}}}", "{{page.body}}", "{{&page.body}}", "{{{page.title_html}}}",
        "{{page.title_html}}", "{{#page.title_html}}[{{{.}}}]{{/page.title_html}}", "{{^page.title_html}}no title{{/page.title_html}}",
        "{{#page.body}}<b>{{.}}</b>{{/page.body}}", "{{^page.body}}empty{{/page.body}}", "{{#page}}{{{content}}}{{title}}{{/page}}",
        "{{#page.content}}{{#page.body}}both{{/page.body}}{{/page.content}}", "{{title}}", "\n  {{>inner}}\n",
        "{{<outer}}{{$slot}}{{{page.body}}}{{/slot}}{{/outer}}",
        "  {{page.content}}\n", "é&<>\"'",
    ]
    static let partials = [
        "inner": "<div>\n  {{{page.body}}}\n{{page.title_html}}</div>\n", "outer": "<main>\n  {{$slot}}default{{/slot}}\n</main>\n",
    ]

    /// A value made at run time (as a page's HTML is), so it has storage of its own.
    static func value(_ random: inout SeededRandom, empty: Bool = false) -> String {
        if empty { return "" }
        let parts = ["<p>", "words", " & ", "<em>it</em>", "\n", "\"quoted\"", "'", "é", "東京", "🙂", "</p>\n", "  indented\n"]
        var text = ""
        for _ in 0..<(4 + Int(random.next() % 12)) { text += parts[Int(random.next() % UInt64(parts.count))] }
        // Long enough to be watched whatever the pieces drawn.
        return text + String(repeating: "x", count: 16)
    }

    /// Values as a page has them (`SiteRenderer.bodyValues`): the body is the content itself unless a title heading
    /// comes first, which may be all there is.
    static func values(_ random: inout SeededRandom) -> BodySlots.Values {
        let content = value(&random)
        switch random.next() % 3 {
        case 0: return (content, content, nil)
        case 1: return (content, value(&random, empty: true), value(&random))
        default: return (content, value(&random), value(&random))
        }
    }

    static func context(_ values: BodySlots.Values) -> MustacheValue {
        .object([
            "title": "A & B",
            "page": .object([
                "title": "Page", "content": .string(values.content), "body": .string(values.body),
                "title_html": values.titleHTML.map(MustacheValue.string) ?? .null,
            ]),
        ])
    }

    static func render(_ template: MustacheTemplate, _ partials: MustachePartials, _ values: BodySlots.Values) -> (Data, BodySlots?) {
        let watched: [(text: String, value: BodySlots.Value)] = [(values.content, .content), (values.body, .body), (values.titleHTML ?? "", .titleHTML)]
        let (data, slots) = template.renderData(context(values), partials: partials, watching: watched)
        return (data, slots.map { BodySlots(slots: $0, shown: BodySlots.shown(values)) })
    }

    @Test func aSpliceIsTheRenderWithTheOtherValues() throws {
        var partials = MustachePartials()
        for (name, source) in Self.partials { partials.add(try MustacheTemplate(source, name: name), named: name) }
        var random = SeededRandom(seed: 42)
        var spliced = 0
        var refused = 0
        for _ in 0..<600 {
            let source = (0..<(1 + Int(random.next() % 8))).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined()
            let template = try MustacheTemplate(source, name: "page")
            let first = Self.values(&random)
            let second = Self.values(&random)
            let (old, slots) = Self.render(template, partials, first)
            let noted = try #require(slots, "\(source)")
            let (new, expected) = Self.render(template, partials, second)
            guard let (result, moved) = noted.splice(old, second) else {
                #expect(BodySlots.shown(first) != BodySlots.shown(second), "refused, though the values are as empty: \(source)")
                refused += 1
                continue
            }
            #expect(BodySlots.shown(first) == BodySlots.shown(second))
            #expect(result == new, "\(source)")
            #expect(moved == expected, "the slots after the splice are where a render puts them: \(source)")
            spliced += 1
        }
        #expect(spliced > 150 && refused > 50, "\(spliced) spliced, \(refused) refused")
    }

    /// A short value is kept inside the string itself, with no storage to tell it by: then there are no slots, rather than
    /// slots that miss it.
    @Test func aShortValueLeavesThePageWithoutSlots() throws {
        let template = try MustacheTemplate("<main>{{{page.body}}}</main>{{{page.content}}}", name: "page")
        let long = String(repeating: "<p>long</p>", count: 3)
        let (_, short) = Self.render(template, MustachePartials(), (long, "<p>x</p>", nil))
        #expect(short == nil)
        let (_, empty) = Self.render(template, MustachePartials(), (long, "", nil))
        #expect(empty?.slots.map(\.value) == [.content], "an empty value writes nothing, so needs no slot")
    }

    /// Pages whose bytes are not the ones the slots were noted in are refused, never spliced wrong.
    @Test func aPageThatDoesNotMatchItsSlotsIsRefused() throws {
        let template = try MustacheTemplate("<main>{{{page.content}}}</main>", name: "page")
        let html = String(repeating: "<p>old text</p>", count: 2)
        let (old, slots) = Self.render(template, MustachePartials(), (html, html, nil))
        let noted = try #require(slots)
        #expect(noted.splice(old.prefix(10), (html + "new", html + "new", nil)) == nil, "cut short")
        var backwards = noted
        backwards.slots.append(BodySlots.Slot(value: .content, escaped: false, start: 0, length: 1))
        #expect(backwards.splice(old, (html, html, nil)) == nil, "slots out of order")
    }

    /// What `glossary build` renders for a content page: the default theme's page template, noted.
    @Test func theDefaultThemesPageHasSlots() throws {
        let theme = try #require(Theme.load(name: "default", siteRoot: URL(fileURLWithPath: "/nonexistent"), displayPath: \.path).0)
        let html = "<h1>Title of it</h1>\n<p>Body &amp; more, long enough.</p>\n"
        let end = try #require(html.range(of: "</h1>\n")).upperBound
        let values = (html, String(html[end...]), String(html[..<end]))
        let watched: [(text: String, value: BodySlots.Value)] = [(values.0, .content), (values.1, .body), (values.2, .titleHTML)]
        let context = MustacheValue.object(["page": .object(["content": .string(values.0), "body": .string(values.1), "title_html": .string(values.2)])])
        let (_, slots) = theme.renderData("page", context, watching: watched)
        #expect(slots?.map(\.value) == [.titleHTML, .body])
    }
}
