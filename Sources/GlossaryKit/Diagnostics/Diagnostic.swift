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

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

public enum Severity: String, Sendable, Hashable {
    case error, warning, note
}

/// A problem found in the user's input, with a stable code such as `unknown-term`.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public var severity: Severity
    public var code: String
    public var message: String
    public var location: SourceLocation?
    /// Where there is no file (network problems): the file-less subject, e.g. the URL.
    public var subject: String?

    public init(
        _ severity: Severity, _ code: String, _ message: String,
        at location: SourceLocation? = nil, subject: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.subject = subject
    }

    public static func error(_ code: String, _ message: String, at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic(.error, code, message, at: location)
    }

    public static func warning(_ code: String, _ message: String, at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic(.warning, code, message, at: location)
    }

    /// Compiler form: `content/a.md:12:7: warning: no definition found for 'keybord' [unknown-term]`.
    public var description: String {
        var prefix = ""
        if let location {
            prefix = "\(location.file):\(location.line):\(location.column): "
        } else if let subject {
            prefix = "\(subject): "
        }
        return "\(prefix)\(severity.rawValue): \(message) [\(code)]"
    }
}

/// Problems collected over a run, so one run reports all of them.
public struct DiagnosticLog: Sendable {
    public private(set) var all: [Diagnostic] = []

    public init() {}

    public mutating func add(_ diagnostic: Diagnostic) { all.append(diagnostic) }
    public mutating func add(contentsOf diagnostics: [Diagnostic]) { all.append(contentsOf: diagnostics) }

    public var errors: [Diagnostic] { all.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { all.filter { $0.severity == .warning } }
    public var hasErrors: Bool { all.contains { $0.severity == .error } }
}
