import Testing

@testable import GlossaryKit

/// The Swift face of libcmark: node kinds as cmark makes them, navigation, contents and rendering.
@Suite struct CMarkTests {
    /// Parses `markdown` with source positions and calls `body` with the tree, freed after.
    static func withTree<Result>(_ markdown: String, _ body: (CMarkNode) throws -> Result) rethrows -> Result {
        var source = markdown
        let root = CMark.parse(&source, options: .sourcePosition)
        defer { root.free() }
        return try body(root)
    }

    /// (cmark leaves an empty text node where the trailing spaces of a hard break were.)
    @Test func everyKindCmarkParsesIsTheKindOfItsNode() {
        let markdown = "# H\n\n> q\n\n- i\n\n```\nc\n```\n\n<div>\n\n***\n\n*e* **s** `c` <b> [l](/u) ![i](/v)  \nx\ny\n"
        let kinds = Self.withTree(markdown) { root in root.events.filter(\.entering).map(\.node.kind) }
        #expect(
            kinds == [
                .document, .heading, .text, .blockQuote, .paragraph, .text, .list, .item, .paragraph, .text, .codeBlock, .htmlBlock,
                .thematicBreak, .paragraph, .emphasis, .text, .text, .strong, .text, .text, .code, .text, .htmlInline, .text, .link,
                .text, .text, .image, .text, .text, .lineBreak, .text, .softBreak, .text,
            ])
        #expect(kinds.allSatisfy { $0.isBlock != $0.isInline })
    }

    @Test func aNewNodeHasTheKindItWasMadeWith() {
        for kind in CMarkNode.Kind.allCases where kind != .none {
            let node = CMarkNode.make(kind)
            #expect(node.kind == kind)
            node.free()
        }
    }

    @Test func nodesKnowTheirNeighboursAndPositions() {
        Self.withTree("Para *one*\n\n## Two\n") { root in
            let paragraph = root.firstChild!
            let heading = root.lastChild!
            #expect(paragraph.next == heading && heading.previous == paragraph && heading.parent == root)
            #expect(paragraph.previous == nil && heading.next == nil && root.parent == nil)
            #expect([paragraph.startLine, paragraph.startColumn, paragraph.endLine, paragraph.endColumn] == [1, 1, 1, 10])
            #expect(heading.headingLevel == 2 && paragraph.headingLevel == 0)
            #expect(paragraph.firstChild?.literal == "Para " && paragraph.literal == nil)
            #expect(paragraph.lastChild?.firstChild.map { Array($0.literalBytes!) } == Array("one".utf8))
        }
    }

    @Test func changedTreesRenderAsChanged() {
        Self.withTree("- [a](/x) b\n- c\n") { root in
            let list = root.firstChild!
            #expect(list.isTight)
            let paragraph = list.firstChild!.firstChild!
            let link = paragraph.firstChild!
            #expect(link.url == "/x")
            link.url = "/y"
            let text = link.next!
            "bee".utf8.withContiguousStorageIfAvailable { text.setLiteral($0) }
            let custom = CMarkNode.make(.customInline)
            custom.setOnEnter("<i>")
            custom.setOnExit(cString: [CChar(bitPattern: 0xFF), 0])
            custom.insert(before: link)
            link.unlink()
            custom.appendChild(link)
            list.lastChild!.free()
            list.isTight = false
            let html = root.withHTML(options: .default) { Array($0) }
            #expect(html == Array("<ul>\n<li>\n<p><i><a href=\"/y\">a</a>".utf8) + [0xFF] + Array("bee</p>\n</li>\n</ul>\n".utf8))
        }
    }

    @Test func theVersionIsLibcmarks() {
        #expect(CMark.version.split(separator: ".").count == 3)
    }
}
