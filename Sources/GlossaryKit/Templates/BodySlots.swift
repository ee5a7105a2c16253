import Foundation

/// Where a rendered content page shows its body: every place its template wrote the page's HTML (`page.content`),
/// the HTML after the page's own title heading (`page.body`) or that heading (`page.title_html`), escaped or not,
/// and whether each value was shown by a section (non-empty).
///
/// A later build puts another body of the same page into those places instead of rendering the page again (see
/// `SiteBuilder.patchText`): when nothing else the page's template reads has changed, and each value is as empty or
/// not as before, the page's HTML is its old HTML with the new values in the slots — byte for byte what the template
/// gives, since a template can only write a value or test whether it is empty.
public struct BodySlots: Sendable, Equatable {
    /// The values a page template may show of the page's body, in the order `values` lists them.
    public enum Value: Int, Sendable, CaseIterable {
        case content = 0
        case body = 1
        case titleHTML = 2
    }

    public struct Slot: Sendable, Equatable {
        public var value: Value
        public var escaped: Bool
        /// Where the value's bytes start in the page and how many there are, as written.
        public var start: Int
        public var length: Int
    }

    /// In output order, none overlapping.
    public var slots: [Slot]
    /// Whether each value (by `Value`) was non-empty: a section on it showed its content.
    public var shown: [Bool]

    /// The strings for `content`, `body` and `title_html` (nil: none) as a page's context holds them, made by
    /// `SiteRenderer.bodyValues`: without a title heading the body is the content itself (one string, noted as the
    /// content), and no other value of the context is one of these strings.
    public typealias Values = (content: String, body: String, titleHTML: String?)

    static func shown(_ values: Values) -> [Bool] {
        [!values.content.isEmpty, !values.body.isEmpty, !(values.titleHTML ?? "").isEmpty]
    }

    /// `old`, the page rendered with the values the slots were noted with, with `values` in the slots instead, and
    /// where they now are; nil when the page doesn't match the slots or a value is not as empty as it was (the template
    /// could then show something else).
    public func splice(_ old: Data, _ values: Values) -> (Data, BodySlots)? {
        guard Self.shown(values) == shown, slots.last.map({ $0.start + $0.length <= old.count }) ?? true else { return nil }
        let texts = [values.content, values.body, values.titleHTML ?? ""]
        var output = GrowingBytes(capacity: old.count + 4096)
        var moved: [Slot] = []
        moved.reserveCapacity(slots.count)
        var position = 0
        let fits = old.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            for slot in slots {
                guard slot.start >= position else { return false }
                output.append(UnsafeBufferPointer(rebasing: bytes[position..<slot.start]))
                let start = output.count
                var text = texts[slot.value.rawValue]
                text.withUTF8 { utf8 in
                    if slot.escaped { MustacheRenderer.appendEscaped(utf8, to: &output) } else { output.append(utf8) }
                }
                moved.append(Slot(value: slot.value, escaped: slot.escaped, start: start, length: output.count - start))
                position = slot.start + slot.length
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[position...]))
            return true
        }
        return fits ? (output.data(), BodySlots(slots: moved, shown: shown)) : nil
    }
}

extension BodySlots {
    /// The address of a string's bytes when it keeps them in storage of its own — a native string of more than 15
    /// bytes (a shorter one is held in the value itself, so any address of its bytes is a copy's). While the string
    /// lives no other string has its storage, so the address tells an interpolation of it from any other.
    static func storage(of text: String) -> UnsafeRawPointer? {
        guard text.utf8.count > 15 else { return nil }
        return text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }
}
