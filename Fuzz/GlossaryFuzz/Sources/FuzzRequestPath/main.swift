import Foundation
import FuzzSupport
import GlossaryKit
import GlossaryServer

// The preview server's request-target check (RequestPath). Whatever a client sends, an accepted path must
// name a file inside the site: relative, no `.` or `..` segment (however encoded), no empty segment, no
// backslash or control byte, no name a build never publishes (`.git`…); it is the target decoded exactly once; and joined to the site's
// folder and standardized by Foundation it stays inside that folder. Checks compare bytes: Swift's `String`
// compares characters, and a combining mark after `.` or `/` makes a different character of it.

let root = "/srv/site"

/// `%XX` escapes replaced by their bytes; nil when one is malformed or the bytes are not UTF-8.
func percentDecoded(_ text: String) -> String? {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8).makeIterator()
    while let byte = iterator.next() {
        guard byte == UInt8(ascii: "%") else {
            bytes.append(byte)
            continue
        }
        guard let high = iterator.next(), let low = iterator.next(), let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else {
            return nil
        }
        bytes.append(value)
    }
    return String(validating: bytes, as: UTF8.self)
}

Fuzzer.run { bytes in
    let raw = String(decoding: bytes, as: UTF8.self)
    guard case .path(let path) = RequestPath(raw: raw) else { return }

    Fuzzer.expect(path.utf8.first != UInt8(ascii: "/"), "absolute path \(path.debugDescription) from \(raw.debugDescription)")
    let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map(Array.init)
    for (index, segment) in segments.enumerated() {
        if segment.isEmpty {
            // Only a folder's trailing slash (or the root itself) leaves an empty segment.
            Fuzzer.expect(index == segments.count - 1, "empty segment in \(path.debugDescription) from \(raw.debugDescription)")
            continue
        }
        Fuzzer.expect(segment != [0x2E] && segment != [0x2E, 0x2E], "dot segment in \(path.debugDescription) from \(raw.debugDescription)")
        Fuzzer.expect(
            !segment.withUnsafeBufferPointer(IgnoredNames.contains(utf8:)),
            "version control's or an editor's name in \(path.debugDescription) from \(raw.debugDescription)")
        Fuzzer.expect(
            !segment.contains { $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 == 0x7F },
            "backslash or control byte in \(path.debugDescription) from \(raw.debugDescription)")
    }

    // Decoded exactly once: percent-decoding the target by hand gives "/" + path.
    Fuzzer.expect(percentDecoded(raw).map { Array($0.utf8) } == Array(("/" + path).utf8), "\(raw.debugDescription) decodes to \(path.debugDescription)")

    let joined = URL(fileURLWithPath: root + "/" + path).standardized.path
    Fuzzer.expect(
        Array(joined.utf8) == Array(root.utf8) || joined.utf8.starts(with: (root + "/").utf8), "\(raw.debugDescription) reaches \(joined.debugDescription)")
}
