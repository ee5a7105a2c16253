/// Named templates available as partials and parents; parsed once.
public struct MustachePartials: Sendable {
    private(set) var templates: [String: MustacheTemplate] = [:]
    /// Which set of templates this is: new with every change, so a thread's copy of an older set is never used.
    private var identity = Identity()

    private final class Identity: Sendable {}

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
        identity = Identity()
    }

    /// These templates as the calling thread's own copy, made the first time it asks for this set (rendering on every
    /// core then counts no references on storage another core's rendering counts on: see `MustacheNode.privateCopy`).
    func forThisThread() -> MustachePartials {
        let current = Self.threadCopy.value
        if let current, current.source === identity { return current.copy }
        var copy = MustachePartials()
        for (name, template) in templates { copy.templates[name.privateCopy] = template.privateCopy }
        copy.identity = identity
        Self.threadCopy.value = ThreadCopy(source: identity, copy: copy)
        return copy
    }

    private final class ThreadCopy {
        let source: Identity
        let copy: MustachePartials
        init(source: Identity, copy: MustachePartials) {
            self.source = source
            self.copy = copy
        }
    }

    private static let threadCopy = ThreadLocal<ThreadCopy>()
}
