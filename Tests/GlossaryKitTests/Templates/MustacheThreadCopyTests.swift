import Foundation
import Testing

@testable import GlossaryKit

/// Each rendering thread reads its own copy of the templates: one that renders exactly as the original and shares no
/// storage with it or with another thread's.
@Suite struct MustacheThreadCopyTests {
    static let partials: MustachePartials = {
        var partials = MustachePartials()
        let long = String(repeating: "a line of literal text long enough to be stored apart\n", count: 3)
        partials.add(
            try! MustacheTemplate(long + "{{#items}}  {{> item}}\n{{/items}}{{^items}}none{{/items}}{{<frame}}{{$body}}x{{/body}}{{/frame}}"), named: "page")
        partials.add(try! MustacheTemplate("<li>{{name.first}} &amp; {{{raw}}}</li>\n"), named: "item")
        partials.add(try! MustacheTemplate("[{{$body}}default{{/body}}]"), named: "frame")
        return partials
    }()

    static let context = MustacheValue.object([
        "items": .array([
            .object(["name": .object(["first": .string("Ada <A>")]), "raw": .string("<b>")]),
            .object(["name": .object(["first": .string("Grace")]), "raw": .string("&")]),
        ])
    ])

    static func text(of template: MustacheTemplate) -> String? {
        guard case .text(let text) = template.nodes.first else { return nil }
        return text.value
    }

    /// The page template's first text, where the partials have it.
    static func pageText(_ partials: MustachePartials?) -> String? {
        partials?["page"].flatMap(text(of:))
    }

    @Test func aCopyRendersAsTheOriginalAndSharesNoStorage() throws {
        let page = try #require(Self.partials["page"])
        let copy = page.privateCopy
        #expect(copy.render(Self.context, partials: Self.partials) == page.render(Self.context, partials: Self.partials))
        let (original, copied) = (try #require(Self.text(of: page)), try #require(Self.text(of: copy)))
        #expect(original == copied)
        #expect(Self.storage(of: original) != nil && Self.storage(of: original) != Self.storage(of: copied))
    }

    @Test func eachThreadHasACopyOfItsOwnUntilTheTemplatesChange() throws {
        let partials = Self.partials
        let mine = partials.forThisThread()
        let again = partials.forThisThread()
        let myText = try #require(Self.pageText(mine))
        #expect(Self.storage(of: myText) == Self.storage(of: try #require(Self.pageText(again))))
        #expect(Self.storage(of: myText) != Self.storage(of: try #require(Self.pageText(partials))))
        // Another thread's copy is another.
        nonisolated(unsafe) var theirs: MustachePartials?
        let done = DispatchSemaphore(value: 0)
        Thread {
            theirs = partials.forThisThread()
            done.signal()
        }.start()
        done.wait()
        let theirText = try #require(Self.pageText(theirs))
        #expect(theirText == myText && Self.storage(of: theirText) != Self.storage(of: myText))
        // Changed templates are copied again.
        var changed = partials
        changed.add(try MustacheTemplate("other"), named: "extra")
        #expect(changed.forThisThread()["extra"] != nil)
        #expect(partials.forThisThread()["extra"] == nil)
        // And every copy renders as the templates do.
        let page = try #require(partials["page"])
        #expect(try #require(mine["page"]).render(Self.context, partials: mine) == page.render(Self.context, partials: partials))
    }

    /// The address of a string's bytes when it keeps them in storage of its own (more than 15 bytes).
    static func storage(of text: String) -> UnsafeRawPointer? {
        guard text.utf8.count > 15 else { return nil }
        return text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }
}
