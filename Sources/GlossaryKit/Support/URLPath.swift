import Foundation

/// The site's URL paths: a path as the site's files are named (`C#/`, `100%/`, `café/`) and as a URI holds it.
/// Every href, `loc` and exported URL the build writes is made by `encoded`, once, from the path as named; a path
/// written in a link is taken back to the file's name by `decoded`.
public enum URLPath {
    /// `path` with every byte outside RFC 3986's `pchar` and `/` percent-encoded as UTF-8: `%`, `#`, `?`, space,
    /// quotes and every non-ASCII character (`café/` → `caf%C3%A9/`, `100%/` → `100%25/`, `C#/` → `C%23/`). A `%`
    /// is always encoded: a file named `a%20b` is `a%2520b`, so decoding once gives back the name.
    ///
    /// Non-ASCII is encoded too rather than written as an IRI: the sitemap protocol requires it, and one spelling
    /// everywhere is what lets a test, a crawler or the preview server compare URLs byte by byte.
    public static func encoded(_ path: String) -> String {
        // Nearly every path is plain: checked on its bytes and given back without copying.
        if path.utf8.allSatisfy(isPathByte) { return path }
        var result = ""
        result.reserveCapacity(path.utf8.count + 8)
        for byte in path.utf8 {
            if isPathByte(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                result.unicodeScalars.append(hexDigits[Int(byte & 0xF)])
            }
        }
        return result
    }

    /// `path` percent-decoded once (`C%23/intro.md` → `C#/intro.md`), or as written when it holds a `%` that is
    /// not an escape (`100%/`) or escapes that are not UTF-8: then it was never encoded.
    public static func decoded(_ path: String) -> String {
        guard path.utf8.contains(UInt8(ascii: "%")) else { return path }
        return path.removingPercentEncoding ?? path
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789ABCDEF".unicodeScalars)

    /// RFC 3986 `pchar` and `/`, without `%`: unreserved, sub-delims, `:` and `@`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "@"): true
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
            UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default: false
        }
    }
}
