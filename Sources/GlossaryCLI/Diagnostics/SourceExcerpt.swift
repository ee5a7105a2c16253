import Foundation
import GlossaryKit

/// The lines of the files diagnostics point into, read once per file, for printing a line under its
/// diagnostic.
final class SourceExcerpt: @unchecked Sendable {
    private let root: URL
    private let lock = NSLock()
    private var files: [String: [Substring]?] = [:]

    /// Lines longer than this are shown as a window around the column.
    static let maximumWidth = 160

    init(root: URL) {
        self.root = root
    }

    /// The line at `location` and a caret line under its column, gutter included, or nil when the file or
    /// line can't be had.
    func lines(at location: SourceLocation) -> [String]? {
        guard let text = line(location.file, location.line), !text.allSatisfy(\.isWhitespace) else { return nil }
        var scalars = Array(text.unicodeScalars)
        var caretColumn = max(1, location.column)
        // A window around the column, so a minified line doesn't fill the screen.
        var prefix = ""
        var suffix = ""
        if scalars.count > Self.maximumWidth {
            let start = max(0, min(caretColumn - 1 - Self.maximumWidth / 2, scalars.count - Self.maximumWidth))
            if start > 0 { prefix = "…" }
            if start + Self.maximumWidth < scalars.count { suffix = "…" }
            scalars = Array(scalars[start..<(start + Self.maximumWidth)])
            caretColumn = caretColumn - start + (prefix.isEmpty ? 0 : 1)
        }
        // Control characters would move the cursor or break the line: each shows as one replacement character.
        var shown = prefix
        for scalar in scalars {
            shown.unicodeScalars.append(scalar == "\t" || !DiagnosticText.isControl(scalar) ? scalar : "\u{FFFD}")
        }
        shown += suffix
        let marker = Array(shown.unicodeScalars).prefix(caretColumn - 1).map { $0 == "\t" ? "\t" : " " }.joined()
        let number = String(location.line)
        let gutter = String(repeating: " ", count: number.count)
        return [" \(number) | \(shown)", " \(gutter) | \(marker)^"]
    }

    private func line(_ file: String, _ number: Int) -> Substring? {
        lock.withLock {
            if files[file] == nil {
                let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : root.appendingPathComponent(file)
                switch FileContents.read(url.path) {
                case .success(let data):
                    let text = String(decoding: data, as: UTF8.self)
                    files[file] = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
                case .failure:
                    files[file] = .some(nil)
                }
            }
            guard let lines = files[file] ?? nil, number >= 1, number <= lines.count else { return nil }
            return lines[number - 1]
        }
    }
}
