/// How bad a problem is: errors stop the build before anything is written; warnings are reported (and fail
/// the build under `--strict`); notes are reported and never fail anything, `--strict` or not.
public enum Severity: String, Sendable, Hashable {
    case error, warning, note
}
