import Foundation

/// What the build knows about a referenced term after resolution.
public enum Resolution: Sendable {
    case defined(TermDefinition)
    /// Every source asked answered that it has no definition (the API's 404, possibly cached; WordNet).
    case notFound
    /// No definition could be had: offline with no cache entry, or every fetch failed.
    case unavailable
    /// The API answered, but with nothing usable (not JSON, the wrong shape, too large), and no other source had it.
    case unusable
}
