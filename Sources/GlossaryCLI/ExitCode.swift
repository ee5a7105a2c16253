/// Exit codes, as DESIGN.md fixes them.
public enum ExitCode {
    public static let success: Int32 = 0
    /// The build found errors (or warnings under `--strict`).
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
    /// The API was needed and unreachable, with nothing cached, under `--strict`.
    public static let unavailable: Int32 = 69

    /// What each code means, for the manual page.
    static let meanings: [(code: String, meaning: String)] = [
        ("\(success)", "Success."),
        ("\(failure)", "The build found errors (or warnings, under --strict); a command failed."),
        ("\(usage)", "Bad usage: an unknown command or option, a missing or malformed value."),
        ("\(unavailable)", "The dictionary API was needed and unreachable, with nothing cached, under --strict."),
        ("128 + N", "Interrupted by signal N: 130 for Ctrl-C (SIGINT), 143 for SIGTERM."),
    ]
}
