/// A GitHub alert: a block quote whose first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`, `[!WARNING]` or
/// `[!CAUTION]` (any case, nothing else on the line), rendered as a labelled callout instead of a quote.
///
/// Every kind is a `role="note"` region named by its visible label. `role="alert"` would suit none of them:
/// it is a live region for messages that appear while the reader works, and screen readers announce every
/// alert on a page as it loads, out of context.
public enum Callout: String, CaseIterable, Sendable {
    case note, tip, important, warning, caution

    /// The kind a block quote's first line announces (`[!Warning]` → `.warning`), or nil.
    public init?(markerLine: String) {
        let line = markerLine[...].trimmingWhitespace
        guard line.hasPrefix("[!"), line.hasSuffix("]"), line.count > 3 else { return nil }
        self.init(rawValue: String(line.dropFirst(2).dropLast()).lowercased())
    }

    /// The label shown above the callout's text.
    public var label: String {
        switch self {
        case .note: "Note"
        case .tip: "Tip"
        case .important: "Important"
        case .warning: "Warning"
        case .caution: "Caution"
        }
    }

    /// The HTML before the callout's blocks.
    public var openingHTML: String {
        "<div class=\"callout callout-\(rawValue)\" role=\"note\" aria-label=\"\(label)\">\n<p class=\"callout-title\">\(label)</p>\n"
    }

    /// The HTML after them.
    public static let closingHTML = "</div>\n"
}
