/// A usage mistake on the command line; exits 64 with the command's usage.
public struct UsageError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(_ message: String) {
        self.message = message
    }
}
