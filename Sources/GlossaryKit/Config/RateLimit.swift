/// How many dictionary API requests may start within a sliding window, written `450/5m`.
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    public var requests: Int
    public var windowSeconds: Int

    public init(requests: Int, windowSeconds: Int) {
        self.requests = requests
        self.windowSeconds = windowSeconds
    }

    /// Reads `REQUESTS/WINDOW`, the window in seconds with an optional unit `s`, `m` or `h`:
    /// `450/5m`, `10/1s`, `100/60`, `1/h` (a missing number means 1). Nil when malformed; zero
    /// values parse, so the caller can report them as out of range rather than as misspelt.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let requestsText = parts[0].withoutSurroundingWhitespace()
        var windowText = parts[1].withoutSurroundingWhitespace()
        guard requestsText.allSatisfy(\.isASCIIDigit), let requests = Int(requestsText) else { return nil }

        var unitSeconds = 1
        var hasUnit = false
        if let unit = windowText.last, !unit.isASCIIDigit {
            switch unit {
            case "s": unitSeconds = 1
            case "m": unitSeconds = 60
            case "h": unitSeconds = 3600
            default: return nil
            }
            hasUnit = true
            windowText = windowText.dropLast().withoutSurroundingWhitespace()
        }
        let count: Int
        if windowText.isEmpty && hasUnit {
            count = 1
        } else {
            guard windowText.allSatisfy(\.isASCIIDigit), let parsed = Int(windowText) else { return nil }
            count = parsed
        }
        let (windowSeconds, overflow) = count.multipliedReportingOverflow(by: unitSeconds)
        guard !overflow else { return nil }
        self.init(requests: requests, windowSeconds: windowSeconds)
    }

    /// The canonical spelling, in the largest whole unit: `450/5m`.
    public var description: String {
        if windowSeconds > 0, windowSeconds % 3600 == 0 { return "\(requests)/\(windowSeconds / 3600)h" }
        if windowSeconds > 0, windowSeconds % 60 == 0 { return "\(requests)/\(windowSeconds / 60)m" }
        return "\(requests)/\(windowSeconds)s"
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension Substring {
    fileprivate func withoutSurroundingWhitespace() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
