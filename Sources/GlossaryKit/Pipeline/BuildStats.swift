/// Counts and timings of one build, for the summary line.
public struct BuildStats: Sendable {
    public var pages = 0
    /// Terms with a page; `local + cached + fetched + fromWordNet` of them, by where their definition came from.
    public var terms = 0
    public var unresolved = 0
    public var local = 0
    public var cached = 0
    public var fetched = 0
    /// Terms defined by WordNet (never cached: they come from local files).
    public var fromWordNet = 0
    public var files = 0
    /// Output files rendered or copied by this build (the rest were unchanged).
    public var written = 0
    /// Seconds per stage, in the order they ran.
    public var stageTimes: [(name: String, seconds: Double)] = []
    public var totalSeconds = 0.0
    /// Whether the build took the text-edit shortcut (`TextEdit`): only the text of pages changed.
    public var textEdit = false

    public init() {}
}
