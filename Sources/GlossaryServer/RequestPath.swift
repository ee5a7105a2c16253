import GlossaryKit

/// A request target's path made safe to look up, or the reason it is refused.
///
/// The path arrives exactly as the client sent it. It is percent-decoded once, and refused when any form
/// could reach outside the site or name something hidden: `.` and `..` segments however they are spelled
/// (`%2e%2e`, `.%2E`), an encoded slash or backslash (`..%2f`, `..%5c`), a raw backslash, NUL or other
/// control bytes (`%00`), raw spaces or non-ASCII bytes, empty segments (`//etc`), targets not starting with `/` (absolute URLs, `*`),
/// malformed escapes and bytes that are not UTF-8. Names a build never publishes (`IgnoredNames`: `.git`, `.DS_Store`,
/// editors' swap files) are not found, though an output folder may hold them (a gh-pages checkout); other dotfiles
/// are served as the build published them (`.well-known/`, `.nojekyll`).
public enum RequestPath: Equatable, Sendable {
    /// The decoded path below the server root, without the leading `/` (`guide/intro/`, `assets/site.css`, ``).
    case path(String)
    /// 400: not a path at all (malformed escapes, not UTF-8, not starting with `/`).
    case malformed
    /// 403: a traversal attempt or a character no site file can have in its URL.
    case forbidden
    /// 404 without looking: version control's or an editor's file (`IgnoredNames`).
    case hidden

    public init(raw: String) {
        let bytes = Array(raw.utf8)
        guard bytes.first == UInt8(ascii: "/") else {
            self = .malformed
            return
        }
        var segments: [[UInt8]] = [[]]
        var index = 1
        while index < bytes.count {
            var byte = bytes[index]
            if byte <= 0x20 || byte >= 0x7F {
                // Raw spaces, control bytes and non-ASCII bytes are not valid in a request target.
                self = .malformed
                return
            }
            if byte == UInt8(ascii: "\\") {
                self = .forbidden
                return
            }
            if byte == UInt8(ascii: "/") {
                segments.append([])
                index += 1
                continue
            }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = Self.hexValue(bytes[index + 1]), let low = Self.hexValue(bytes[index + 2]) else {
                    self = .malformed
                    return
                }
                byte = high << 4 | low
                index += 3
                // An escaped separator or control byte is never part of a site path; it is how traversals hide.
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte == 0x7F {
                    self = .forbidden
                    return
                }
            } else {
                index += 1
            }
            segments[segments.count - 1].append(byte)
        }
        var parts: [String] = []
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            if segment.isEmpty {
                if isLast { break }  // a trailing slash: a folder
                self = .forbidden
                return
            }
            guard let text = String(validating: segment, as: UTF8.self) else {
                self = .malformed
                return
            }
            // Bytes, not characters: `String` compares characters, and `.` followed by a combining mark is another
            // character, though the file's name still starts with a dot.
            if segment == [UInt8(ascii: ".")] || segment == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                self = .forbidden
                return
            }
            if segment.withUnsafeBufferPointer(IgnoredNames.contains(utf8:)) {
                self = .hidden
                return
            }
            parts.append(text)
        }
        let joined = parts.joined(separator: "/")
        let isFolder = segments.count > 1 && segments[segments.count - 1].isEmpty
        self = .path(isFolder && !joined.isEmpty ? joined + "/" : joined)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
