/// Problems collected over a run, so one run reports all of them.
public struct DiagnosticLog: Sendable {
    public private(set) var all: [Diagnostic] = []

    public init() {}

    public mutating func add(contentsOf diagnostics: [Diagnostic]) { all.append(contentsOf: diagnostics) }

    public var hasErrors: Bool { all.contains { $0.severity == .error } }
}
