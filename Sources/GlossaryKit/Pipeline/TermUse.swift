import Foundation

/// A reference and the page it is on.
public struct TermUse: Sendable {
    public var pageIndex: Int
    public var reference: TermReference
}
