/// A name's standing in the glossary, as TBX's administrative status says it: `preferred` and `admitted` names may
/// be written; a page that writes a `deprecated` one gets a warning, a `forbidden` one an error.
public enum TermStatus: String, CaseIterable, Sendable, Hashable {
    case preferred
    case admitted
    case deprecated
    case forbidden

    /// Whether a page writing the name is reported (`deprecated-term`, `forbidden-term`).
    public var isDiscouraged: Bool { self == .deprecated || self == .forbidden }

    /// TBX-Basic's `administrativeStatus` picklist value.
    public var tbxValue: String { rawValue + "Term-admn-sts" }

    /// The status a TBX `administrativeStatus` value stands for (`deprecatedTerm-admn-sts`, and TBX-Min's bare words).
    public init?(tbxValue: String) {
        let value = tbxValue.hasSuffix("Term-admn-sts") ? String(tbxValue.dropLast("Term-admn-sts".count)) : tbxValue
        // TBX-Min writes `notRecommended` where TBX-Basic writes `deprecated`.
        self.init(rawValue: value == "notRecommended" ? "deprecated" : value)
    }
}
