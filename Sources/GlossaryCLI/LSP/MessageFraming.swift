import Foundation
import GlossaryKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The Language Server Protocol's base protocol: messages framed by a `Content-Length` header, read from one file
/// descriptor and written to another.
enum MessageFraming {
    /// A framing problem: a header block without a usable `Content-Length`.
    struct BadHeader: Error {
        var header: String
    }

    /// Reads framed messages from `descriptor` until it ends, giving each body (or a framing problem) to `receive`
    /// as it is read. Blocks its thread on `read(2)`.
    static func read(from descriptor: Int32, receive: (Result<[UInt8], BadHeader>) -> Void) {
        var buffer: [UInt8] = []
        var start = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var expected: Int?
        while true {
            // Take every whole message the buffer holds.
            while true {
                if let length = expected {
                    guard buffer.count - start >= length else { break }
                    receive(.success(Array(buffer[start..<(start + length)])))
                    start += length
                    expected = nil
                    continue
                }
                guard let end = headerEnd(buffer, from: start) else { break }
                let header = String(decoding: buffer[start..<end], as: UTF8.self)
                start = end + 4
                if let length = contentLength(header) {
                    expected = length
                } else {
                    receive(.failure(BadHeader(header: header)))
                }
            }
            if start > 0 && (start == buffer.count || start > 1 << 20) {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// The index of the `\r\n\r\n` ending the header block that starts at `start`.
    static func headerEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// The `Content-Length` of a header block (header names are case-insensitive).
    static func contentLength(_ header: String) -> Int? {
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" else { continue }
            guard let length = Int(parts[1].trimmingCharacters(in: .whitespaces)), length >= 0 else { return nil }
            return length
        }
        return nil
    }

    /// `body` with its header, as written to the client.
    static func framed(_ body: String) -> [UInt8] {
        let bytes = Array(body.utf8)
        return Array("Content-Length: \(bytes.count)\r\n\r\n".utf8) + bytes
    }
}

/// Where messages to the client go: one writer at a time, each message whole.
final class MessageWriter: Sendable {
    private let descriptor: Mutex<Int32>

    init(descriptor: Int32) {
        self.descriptor = Mutex(descriptor)
    }

    func send(_ message: JSONValue) {
        let bytes = MessageFraming.framed(JSONWriter.text(message, pretty: false, htmlSafe: false))
        descriptor.withLock { fd in
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                written += count
            }
        }
    }
}
