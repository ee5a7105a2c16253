/// The `id`s of a page's headings, GitHub-style: the heading's text lowercased, everything but letters, marks,
/// numbers, `-`, `_` and spaces removed, each space made `-`; a repeated one gets `-1`, `-2`… in document order.
///
/// A heading may choose its id by ending with `{#id}`. An id depends only on the page's own headings, so it is stable
/// while they are: links to `page.md#install` keep working when other pages change.
public struct HeadingAnchors: Sendable {
    /// Ids the default theme gives elements of every content page (and the fragment `#top`, which browsers read
    /// as the top of the page): a heading never takes one, so it can't be shadowed.
    public static let reserved: Set<String> = ["main", "top", "terms-on-page"]

    private var taken: Set<String>

    public init(reserved: Set<String> = HeadingAnchors.reserved) {
        taken = reserved
    }

    /// The id of the next heading with `text`, unique among those given out so far.
    public mutating func id(for text: String) -> String {
        let base = Self.slug(text)
        return unique(base.isEmpty ? "section" : base)
    }

    /// The id of the next heading with `text` that ends with `{#explicit}`: `explicit` itself when it is an id
    /// (`isValid`) not given out before, else an id made from it (or from the text) — with `taken` true.
    public mutating func id(for text: String, explicit: String) -> (id: String, taken: Bool) {
        guard Self.isValid(explicit) else { return (id(for: text), true) }
        let id = unique(explicit)
        return (id, id != explicit)
    }

    /// The `{#id}` a heading's text ends with — the attribute syntax of kramdown, Pandoc, Hugo, Docusaurus and MkDocs'
    /// `attr_list` — and the text before it; nil when there is none. `{#` starts the text or follows a space or tab.
    public static func explicitID(in text: String) -> (text: String, id: String)? {
        guard text.hasSuffix("}"), let open = text.range(of: "{#", options: .backwards) else { return nil }
        let id = text[open.upperBound..<text.index(before: text.endIndex)]
        let before = text[..<open.lowerBound]
        guard before.isEmpty || before.last == " " || before.last == "\t", !id.contains("}") else { return nil }
        return (String(before.reversed().drop { $0 == " " || $0 == "\t" }.reversed()), String(id))
    }

    /// Whether `id` may be a heading's id: letters, marks, digits, `-`, `_`, `:` and `.` (nothing an attribute, a URL
    /// fragment or a CSS selector would need escaped for).
    public static func isValid(_ id: String) -> Bool {
        !id.isEmpty
            && id.unicodeScalars.allSatisfy { scalar in
                switch scalar.properties.generalCategory {
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark, .spacingMark,
                    .decimalNumber, .letterNumber, .otherNumber:
                    true
                default: "-_:.".unicodeScalars.contains(scalar)
                }
            }
    }

    /// `base`, or `base-1`, `base-2`… the first not given out yet.
    private mutating func unique(_ base: String) -> String {
        var candidate = base
        var count = 0
        while taken.contains(candidate) {
            count += 1
            candidate = "\(base)-\(count)"
        }
        taken.insert(candidate)
        return candidate
    }

    /// GitHub's slug of `text`, before it is made unique (empty when nothing of it is kept).
    public static func slug(_ text: String) -> String {
        asciiSlug(text) ?? unicodeSlug(text)
    }

    /// `slug` by Unicode general categories, for any text.
    static func unicodeSlug(_ text: String) -> String {
        var slug = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                slug.append(scalar)
            case .spaceSeparator where scalar == " ":
                slug.append("-")
            default:
                if scalar == "-" || scalar == "_" { slug.append(scalar) }
            }
        }
        return String(slug)
    }

    /// `slug` of an all-ASCII text, byte by byte (nearly every heading: no Unicode properties looked up); nil when
    /// the text has anything else.
    static func asciiSlug(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var slug: [UInt8] = []
            slug.reserveCapacity(bytes.count)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): slug.append(byte | 0x20)
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    slug.append(byte)
                case UInt8(ascii: " "): slug.append(UInt8(ascii: "-"))
                case 0x80...: return nil
                default: continue
                }
            }
            return String(decoding: slug, as: UTF8.self)
        }
    }
}
