import Foundation

/// Why output could not be written.
public enum OutputFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The new site's folder could not be made.
    case create(folder: String, reason: String)
    case write(path: String, reason: String)
    /// The new site could not be put in place; the old one is untouched.
    case swap(reason: String)

    public var description: String {
        switch self {
        case .create(let folder, let reason): "can't create the new site beside \(folder): \(reason)"
        case .write(let path, let reason): "can't write \(path): \(reason)"
        case .swap(let reason): "can't put the new site in place: \(reason)"
        }
    }
}
