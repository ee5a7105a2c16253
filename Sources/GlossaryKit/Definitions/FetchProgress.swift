public struct FetchProgress: Sendable {
    public var done: Int
    public var total: Int
    public var failed: Int
    public var requestsPerSecond: Double
    /// The API's host (`api.dictionaryapi.dev`), for messages.
    public var host: String

    public init(done: Int, total: Int, failed: Int, requestsPerSecond: Double, host: String = "") {
        self.done = done
        self.total = total
        self.failed = failed
        self.requestsPerSecond = requestsPerSecond
        self.host = host
    }
}
