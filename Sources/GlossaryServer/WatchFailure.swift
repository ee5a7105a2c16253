import Foundation

/// Why files can't be watched (this way).
public struct WatchFailure: Error, CustomStringConvertible, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
