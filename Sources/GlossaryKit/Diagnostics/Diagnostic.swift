/// A problem found in the user's input or met on the way (the network, the disk): what it is (a `Problem`,
/// which fixes its code, severity and message), where, and notes pointing at related places.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public var problem: Problem
    /// The code's severity, unless the caller changed it (`--strict` makes warnings errors; `cache verify`
    /// reports unusable entries as errors).
    public var severity: Severity
    public var location: SourceLocation?
    /// Where there is no file (network problems): the file-less subject, e.g. the URL.
    public var subject: String?
    /// Related places: the first definition of a duplicate, where a YAML construct began.
    public var notes: [Note]

    /// A remark attached to a diagnostic, at a place of its own.
    public struct Note: Hashable, Sendable {
        public var message: String
        public var location: SourceLocation?
        /// False when the location stands for a whole file (its first line says nothing).
        public var showsSourceLine: Bool

        public init(_ message: String, at location: SourceLocation?, showsSourceLine: Bool = true) {
            self.message = message
            self.location = location
            self.showsSourceLine = showsSourceLine
        }
    }

    public init(_ problem: Problem, at location: SourceLocation? = nil, subject: String? = nil, notes: [Note] = []) {
        self.problem = problem
        self.severity = problem.code.severity
        self.location = location
        self.subject = subject
        self.notes = notes
    }

    /// A diagnostic reported as an error whatever its code's usual severity (`cache verify`'s findings).
    public static func asError(_ problem: Problem, at location: SourceLocation? = nil) -> Diagnostic {
        var diagnostic = Diagnostic(problem, at: location)
        diagnostic.severity = .error
        return diagnostic
    }

    public var code: DiagnosticCode { problem.code }
    public var message: String { problem.message }

    /// Diagnostics are equal when they say the same thing at the same place, however they were made (one
    /// replayed from a snapshot equals the one it repeats).
    public static func == (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        lhs.code == rhs.code && lhs.severity == rhs.severity && lhs.location == rhs.location && lhs.subject == rhs.subject
            && lhs.notes == rhs.notes && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(location)
        hasher.combine(message)
    }

    /// Compiler form: `content/a.md:12:7: warning: no definition found for 'keybord' [unknown-term]`.
    ///
    /// Paths are shown with control characters escaped, so a file name holding a newline and
    /// `:1:2: error:` can't forge a diagnostic line.
    public var description: String {
        "\(Self.prefix(location: location, subject: subject))\(severity.rawValue): \(message) [\(code.rawValue)]"
    }

    /// `file:line:col: `, `subject: `, or nothing.
    public static func prefix(location: SourceLocation?, subject: String?) -> String {
        if let location {
            return "\(DiagnosticText.escaped(location.file)):\(location.line):\(location.column): "
        }
        if let subject { return "\(DiagnosticText.escaped(subject)): " }
        return ""
    }
}
