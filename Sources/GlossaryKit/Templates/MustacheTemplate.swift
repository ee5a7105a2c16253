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

    /// `renderData`, with `slots` as the values of the context's `.slot`s, noting where each is written; nil slots
    /// when the render stopped at a limit.
    func renderData(_ context: MustacheValue, partials: MustachePartials, slots: [String]) -> (Data, MustacheSlots?) {
        var renderer = MustacheRenderer(context: context, partials: partials, expectedLength: sourceLength * 2, slots: slots)
        renderer.render(nodes)
        let written = renderer.stopped ? nil : MustacheSlots(written: renderer.written, shown: slots.map { !$0.isEmpty })
        return (renderer.data(), written)
    }
}
