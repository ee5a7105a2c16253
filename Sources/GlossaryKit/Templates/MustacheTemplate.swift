import Foundation

/// A parsed template: parse once, render many times.
public struct MustacheTemplate: Sendable {
    /// The name errors are reported under, usually the template's file path.
    public let name: String
    let nodes: [MustacheNode]
    /// Output is usually about as long as the template; reserving that up front saves regrowing the buffer.
    private let sourceLength: Int

    /// Parses `source`; syntax errors (unclosed or mismatched sections, unclosed tags, bad delimiters)
    /// are thrown with the line and column where they happen.
    public init(_ source: String, name: String = "") throws(MustacheError) {
        self.name = name
        self.nodes = try MustacheParser.parse(source, templateName: name)
        self.sourceLength = source.utf8.count
    }

    private init(name: String, nodes: [MustacheNode], sourceLength: Int) {
        self.name = name
        self.nodes = nodes
        self.sourceLength = sourceLength
    }

    /// This template with nothing shared with it (see `MustacheNode.privateCopy`).
    var privateCopy: MustacheTemplate {
        MustacheTemplate(name: name.privateCopy, nodes: nodes.map(\.privateCopy), sourceLength: sourceLength)
    }

    /// Renders against `context`; partials and parents are looked up in `partials`, missing ones render as nothing.
    ///
    /// A runaway template (a partial that includes itself, a list's section nested in itself many times) stops
    /// rendering at the limits in `MustacheRenderer` instead of exhausting the stack, memory or time.
    public func render(_ context: MustacheValue, partials: MustachePartials = MustachePartials()) -> String {
        render(context, partials: partials, limits: MustacheRenderer.Limits())
    }

    func render(_ context: MustacheValue, partials: MustachePartials, limits: MustacheRenderer.Limits) -> String {
        String(decoding: renderData(context, partials: partials, limits: limits), as: UTF8.self)
    }

    /// `render(_:partials:)` as UTF-8 bytes, made in one block that becomes the `Data` (a page is never in memory
    /// twice).
    func renderData(_ context: MustacheValue, partials: MustachePartials, limits: MustacheRenderer.Limits = MustacheRenderer.Limits()) -> Data {
        var renderer = MustacheRenderer(context: context, partials: partials, expectedLength: sourceLength * 2, limits: limits)
        renderer.render(nodes)
        return renderer.data()
    }

    /// `renderData`, noting where each of `watched` (strings of the context, by the value they stand for) is written;
    /// nil slots when a watched string has no storage of its own to tell it by or the render stopped at a limit.
    func renderData(
        _ context: MustacheValue, partials: MustachePartials, watching watched: [(text: String, value: BodySlots.Value)]
    ) -> (Data, [BodySlots.Slot]?) {
        var addresses: [(address: UnsafeRawPointer, value: BodySlots.Value)] = []
        var trackable = true
        for (text, value) in watched where !text.isEmpty {
            guard let address = BodySlots.storage(of: text) else {
                trackable = false
                continue
            }
            addresses.append((address, value))
        }
        // The strings are held (by `watched`) until the render is done, so no other string can take their storage.
        var renderer = MustacheRenderer(context: context, partials: partials, expectedLength: sourceLength * 2, watching: trackable ? addresses : [])
        renderer.render(nodes)
        let slots = trackable && !renderer.stopped ? renderer.slots : nil
        let data = renderer.data()
        return withExtendedLifetime(watched) { (data, slots) }
    }
}
