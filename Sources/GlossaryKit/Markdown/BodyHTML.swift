import Foundation

/// A page's body HTML with a slot before and after the shown text of each term reference: everything markdown decides,
/// without what the site decides (what each reference links to), so a page is converted once, before definitions are
/// resolved, and filled once they are (`filled(with:)`).
public struct BodyHTML: Sendable, Equatable {
    /// The HTML without the references' markup.
    var bytes: [UInt8]
    /// In order of offset: where each reference's markup opens or closes (the reference's index in the page's
    /// `references`).
    var slots: [Slot]

    struct Slot: Sendable, Equatable {
        var offset: Int
        var reference: Int
        var closes: Bool
    }

    /// Marker bytes around a reference's index in the HTML cmark writes: neither can be in UTF-8, which is all cmark
    /// writes of a page's own text (its input is checked UTF-8), so only a reference's markup holds them.
    static let opening: UInt8 = 0xFF
    static let closing: UInt8 = 0xFE
    static let end: UInt8 = 0xFD

    /// The marker cmark writes for reference `index`'s opening (or closing) markup, NUL-terminated for cmark.
    static func marker(_ index: Int, closes: Bool) -> [CChar] {
        ([closes ? closing : opening] + Array(String(index).utf8) + [end, 0]).map { CChar(bitPattern: $0) }
    }

    /// The body of HTML as cmark wrote it, its markers taken out as slots.
    init(marked html: UnsafeBufferPointer<UInt8>) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(html.count)
        var slots: [Slot] = []
        var index = 0
        var runStart = 0
        while index < html.count {
            let byte = html[index]
            guard byte == Self.opening || byte == Self.closing else {
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: html[runStart..<index]))
            var number = 0
            index += 1
            while index < html.count, html[index] != Self.end {
                number = number * 10 + Int(html[index] &- UInt8(ascii: "0"))
                index += 1
            }
            slots.append(Slot(offset: bytes.count, reference: number, closes: byte == Self.closing))
            index += 1
            runStart = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: html[runStart...]))
        self.bytes = bytes
        self.slots = slots
    }

    init(bytes: [UInt8], slots: [Slot]) {
        self.bytes = bytes
        self.slots = slots
    }

    /// The HTML with each reference's markup in its slots (`wrappers` index-aligned with the page's references).
    public func filled(with wrappers: [MarkdownDocument.Wrapper]) -> String {
        guard !slots.isEmpty else { return String(decoding: bytes, as: UTF8.self) }
        var html: [UInt8] = []
        html.reserveCapacity(bytes.count + slots.count * 64)
        var position = 0
        for slot in slots {
            html.append(contentsOf: bytes[position..<slot.offset])
            let wrapper = wrappers[slot.reference]
            html.append(contentsOf: (slot.closes ? wrapper.close : wrapper.open).utf8)
            position = slot.offset
        }
        html.append(contentsOf: bytes[position...])
        return String(decoding: html, as: UTF8.self)
    }
}
