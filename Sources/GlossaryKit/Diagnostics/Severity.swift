/// How bad a problem is: errors stop the build before anything is written; warnings are reported (and fail
/// the build under `--strict`).
public enum Severity: String, Sendable, Hashable {
    case error, warning
}
