/// Named templates available as partials and parents; parsed once.
public struct MustachePartials: Sendable {
    private var templates: [String: MustacheTemplate] = [:]

    public init() {}

    /// Parses every source, named by its key; the first error (in name order) is thrown.
    public init(sources: [String: String]) throws(MustacheError) {
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            templates[name] = try MustacheTemplate(source, name: name)
        }
    }

    public subscript(name: String) -> MustacheTemplate? {
        templates[name]
    }

    public mutating func add(_ template: MustacheTemplate, named name: String) {
        templates[name] = template
    }
}
