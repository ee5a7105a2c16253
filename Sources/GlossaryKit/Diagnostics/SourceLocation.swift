/// A place in a source file: 1-based line and column.
public struct SourceLocation: Hashable, Sendable, Comparable {
    /// Path as shown to the user, relative to the site's source folder when possible.
    public var file: String
    public var line: Int
    /// 1-based column counted in Unicode scalars (cmark's byte columns are converted).
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The start of `file`: for problems that concern a whole file.
    public static func start(of file: String) -> SourceLocation {
        SourceLocation(file: file, line: 1, column: 1)
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
