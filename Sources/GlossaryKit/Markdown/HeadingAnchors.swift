/// The `id`s of a page's headings, GitHub-style: the heading's text lowercased, everything but letters, marks,
/// numbers, `-`, `_` and spaces removed, each space made `-`; a repeated one gets `-1`, `-2`… in document order.
///
/// An id depends only on the page's own headings, so it is stable while they are: links to `page.md#install`
/// keep working when other pages change.
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
        var base = Self.slug(text)
        if base.isEmpty { base = "section" }
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
