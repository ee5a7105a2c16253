/// Exit codes, as DESIGN.md fixes them.
public enum ExitCode {
    public static let success: Int32 = 0
    /// The build found errors (or warnings under `--strict`).
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
    /// The API was needed and unreachable, with nothing cached, under `--strict`.
    public static let unavailable: Int32 = 69
}
