/// One thing the site search finds: a content page, a generated section page or a term, with the three fields
/// the index holds (title, headings, text) and what a result shows.
///
/// A value kept in one shared box: the preview server's index reuses 12,000 documents from build to build, and a
/// copy of eight fields was eight reference counts changed (a fifth of an edit's index); a copy is now one, and two
/// documents of the same box are equal without comparing their fields. A change makes a box of its own.
@dynamicMemberLookup
public struct SearchDocument: Sendable, Equatable {
    public enum Kind: Int, Sendable {
        case page = 0
        case term = 1
    }

    /// What a document holds, read and written as the document's own properties (`document.title`).
    public struct Fields: Sendable, Equatable {
        public var kind: Kind
        public var title: String
        /// The URL path below the site root (`guide/intro/`).
        public var urlPath: String
        /// Where it sits: the titles of the sections above it (`Guide › Linking`), or `Glossary` for a term.
        public var trail: String
        /// A line under the title: the page's description, the term's summary.
        public var summary: String?
        /// Headings a result can lead to (levels 2 and 3) with their ids.
        public var headings: [PageHeading]
        /// The headings field's text (for a term: its aliases).
        public var headingsText: String
        public var text: SearchTerms
    }

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    public init(
        kind: Kind, title: String, urlPath: String, trail: String, summary: String?, headings: [PageHeading], headingsText: String,
        text: SearchTerms
    ) {
        box = Box(
            Fields(kind: kind, title: title, urlPath: urlPath, trail: trail, summary: summary, headings: headings, headingsText: headingsText, text: text))
    }

    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = box.fields
        body(&fields)
        box = Box(fields)
    }

    /// Each field, read from the box; a change makes a box of its own.
    public subscript<T>(dynamicMember field: WritableKeyPath<Fields, T>) -> T {
        get { box.fields[keyPath: field] }
        set { change { $0[keyPath: field] = newValue } }
    }

    public static func == (lhs: SearchDocument, rhs: SearchDocument) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }
}
