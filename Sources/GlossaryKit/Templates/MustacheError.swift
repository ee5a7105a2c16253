/// A template syntax error, located by 1-based line and column (the column counts Unicode scalars).
public struct MustacheError: Error, CustomStringConvertible, Equatable, Sendable {
    public var templateName: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(templateName: String, line: Int, column: Int, message: String) {
        self.templateName = templateName
        self.line = line
        self.column = column
        self.message = message
    }

    /// Compiler form: `page.mustache:3:5: error: section 'items' is never closed`.
    public var description: String {
        "\(templateName):\(line):\(column): error: \(message)"
    }
}

extension MustacheError {
    /// An error at a UTF-8 byte offset of `source`; the position is only worked out here, when something failed.
    init(_ message: String, at offset: Int, in source: [UInt8], templateName: String) {
        let end = min(offset, source.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where source[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // Counting the bytes that start a scalar (not UTF-8 continuation bytes) gives the column in scalars.
        let column = 1 + source[lineStart..<end].count { $0 & 0b1100_0000 != 0b1000_0000 }
        self.init(templateName: templateName, line: line, column: column, message: message)
    }
}
