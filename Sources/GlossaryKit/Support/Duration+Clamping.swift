extension Duration {
    /// The longest duration made from a number of seconds: about 68 years, for all practical purposes forever, yet
    /// short enough that its milliseconds (and an instant that far ahead) can't overflow.
    static let longestFromSeconds = Duration.seconds(Int64(Int32.max))

    /// `seconds` as a duration, to the millisecond, for values from outside (a `Retry-After`, glossary.yml): no
    /// longer than `longestFromSeconds`, and zero when negative or not a number, where converting them as they
    /// are would trap.
    static func seconds(clamping seconds: Double) -> Duration {
        guard seconds > 0 else { return .zero }
        guard seconds < Double(Int32.max) else { return longestFromSeconds }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
