import Foundation

/// A reference, by where it is: the page (its index among the records the usage was collected from) and the
/// reference's place in that record's `allReferences`. Two numbers, not a copy of the reference: a site keeps one
/// use for every reference of every page (`PageRecord.reference(at:)` reads it back).
public struct TermUse: Sendable, Equatable {
    public var pageIndex: Int
    public var referenceIndex: Int
}
