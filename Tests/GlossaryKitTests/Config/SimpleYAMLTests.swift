import TestSupport
import Testing

@testable import GlossaryKit

/// `SimpleYAML` reads the common front matter without libyaml; whatever it takes, it must read exactly as libyaml
/// does (values, quoting, lines and columns), and it must take the usual front matter.
@Suite struct SimpleYAMLTests {
    private static func libyaml(_ text: String, lineOffset: Int) -> YAMLNode? {
        try? YAMLNode.parseWithLibyaml(text, file: "page.md", lineOffset: lineOffset)
    }

    @Test func theUsualFrontMatterIsReadWithoutLibyamlAsLibyamlReadsIt() throws {
        let texts = [
            "title: \"Anatomy Big Salary\"\ntags:\n  - howto\n  - poetry\n  - tooling\ndate: 2020-10-17\n",
            "term: accent\n",
            "title: 'Q&A: it works'\nweight: 3\ndraft: true\naliases:\n- one\n- \"two words\"",
            "title: C++, the 50% version\ndescription: It's a page about x - y\n",
            "title: x\ntags: [craft, history, \"two words\", 'q']\nempty: []\n",
        ]
        for text in texts {
            let simple = try #require(SimpleYAML.parse(text, file: "page.md", lineOffset: 1), "\(text)")
            #expect(simple == Self.libyaml(text, lineOffset: 1), "\(text)")
        }
    }

    @Test func whatItDoesNotTakeIsLeftToLibyaml() {
        for text in [
            "title: a # comment\n", "title: |\n  block\n", "title: \"esc\\\"aped\"\n", "title: x\n\ndate: 1\n",
            "title: café\n", "title:\tx\n", "tags:\n", "nested:\n  key: value\n", "title: x \n", "title: 'it''s'\n", "---\n",
            "title: &a x\n", "Null: ", "title: ", "title:   ", "title: \n", "a: b\ntitle:  ", "tags: [a,b]\n", "tags: [a, [b]]\n", "tags: [a, b] # c\n",
            "tags: [a: 1]\n", "tags: {a: 1}\n", "title: *a\n", "title: !str 3\n",
            "tags:\n  - a\n    - b\n", "tags:\n  - a\n - b\n", "- a\n",
        ] {
            #expect(SimpleYAML.parse(text, file: "page.md", lineOffset: 0) == nil, "\(text)")
        }
    }

    /// Random texts made of likely lines and near misses: each one the fast reader takes reads as libyaml reads it.
    @Test func randomTextsItTakesReadAsLibyamlReadsThem() {
        let goodKeys = ["title", "tags", "date", "a", "x-y", "k_1", "Title2"]
        let badKeys = ["title ", "1st", "-k", "\"q\"", " title"]
        let goodValues = [
            "plain", "two words", "a  b", "\"quoted\"", "'single'", "it's", "a, b", "50%", "C++", "2020-10-17", "true", "~", "\"\"",
            "''", "\"a'b\"", "'a\"b'", "x?", "a\\b", "x-y", "\"Q&A: x\"", "'a # b'", "\"[x]\"", "3.14", "null", "y - z",
        ]
        let badValues = [
            "Q&A: x", "\"esc\\d\"", "-x", "- x", "[a, b]", "{a: 1}", "x # c", "x ", " y", "|", ">", "&a x", "*a", "!t x", "@x", "`x",
            "?x", "a\tb", "é", "x:y", "http://x", "a#b", "\"open", "'open", "\"a\" b", "-", "--", "'it''s'", "", " ",
        ]
        var random = SeededRandom(seed: 0x5eed)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        // Mostly what the fast reader takes, with a near miss now and then.
        func key() -> String { random.next() % 12 == 0 ? pick(badKeys) : pick(goodKeys) }
        func value() -> String { random.next() % 12 == 0 ? pick(badValues) : pick(goodValues) }
        var taken = 0
        var withLists = 0
        for _ in 0..<10000 {
            var lines: [String] = []
            for _ in 0..<(1 + Int(random.next() % 6)) {
                switch random.next() % 24 {
                case 0..<8: lines.append(key() + ": " + value())
                case 8..<10:
                    // A list: its items indented alike, now and then not.
                    lines.append(key() + ":")
                    let indent = pick([0, 2, 2, 4])
                    for _ in 0..<Int(random.next() % 4) {
                        let shift = random.next() % 15 == 0 ? 1 : 0
                        lines.append(String(repeating: " ", count: indent + shift) + (random.next() % 15 == 0 ? "-" : "- ") + value())
                    }
                case 10..<17: lines.append(String(repeating: " ", count: pick([0, 0, 1, 2, 2, 4])) + pick(["- ", "-  ", "-"]) + value())
                case 17..<19: lines.append(key() + ":" + pick(["  ", "   "]) + value())
                case 19..<23:
                    let items = (0..<Int(random.next() % 4)).map { _ in value() }
                    lines.append(key() + ": [" + items.joined(separator: pick([", ", ", ", ", ", ",", " , "])) + pick(["]", "]", "]", " ]", "], x"]))
                default: lines.append(pick(["", "# note", "---", "...", "key:value", "  nested: x"]))
                }
            }
            let text = lines.joined(separator: "\n") + pick(["", "\n"])
            let lineOffset = Int(random.next() % 3)
            guard let simple = SimpleYAML.parse(text, file: "page.md", lineOffset: lineOffset) else { continue }
            taken += 1
            if case .mapping(let pairs) = simple.kind, pairs.contains(where: { if case .sequence(let items) = $0.value.kind { !items.isEmpty } else { false } })
            {
                withLists += 1
            }
            #expect(simple == Self.libyaml(text, lineOffset: lineOffset), "\(text)")
        }
        // Enough of them are taken for the comparison to mean something.
        #expect(taken > 1000 && withLists > 200, "\(taken) taken, \(withLists) with lists")
    }
}
