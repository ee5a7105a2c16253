import Foundation

/// Where a render wrote the values of its context's slots (`MustacheValue.slot`), escaped or not, and whether each value
/// was empty (a section on it hid its content).
///
/// A template can only write a value or test whether it is empty, so rendering the same context with other values in
/// the slots gives the old bytes with the new values in the same places — as long as each value is as empty or not as
/// before. `refilled` makes that render from the old bytes alone. A file made otherwise may note its parts the same way
/// (each term's part of an export, by the term's place), to have them replaced (`replaced`).
public struct MustacheSlots: Sendable, Equatable {
    public struct Written: Sendable, Equatable {
        public var slot: Int
        public var escaped: Bool
        /// Where the value's bytes start in the output and how many there are, as written.
        public var start: Int
        public var length: Int
    }

    /// In output order, none overlapping.
    public var written: [Written]
    /// Whether each slot's value was non-empty, by slot.
    public var shown: [Bool]

    /// The render of `old`'s context with `values` in the slots, made from `old` (the render these slots were noted in),
    /// and where the values now are; nil when a value's emptiness changed or `old` doesn't match.
    public func refilled(_ old: Data, with values: [String]) -> (Data, MustacheSlots)? {
        guard values.map({ !$0.isEmpty }) == shown, written.allSatisfy({ $0.slot < values.count }) else { return nil }
        return replaced(old) { values[$0] }
    }

    /// `old` with the slots `value` gives a value for holding it instead, the others kept as they are, and where every
    /// slot's value now is; nil when `old` doesn't match. For a file whose slots are plain text (`llms-full.txt`, slot
    /// by page), not tested for emptiness (`shown` is kept as it is).
    public func replaced(_ old: Data, with value: (Int) -> String?) -> (Data, MustacheSlots)? {
        guard let patch = patch(count: old.count, with: value) else { return nil }
        var output = GrowingBytes(capacity: patch.count)
        old.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            for piece in patch.pieces {
                switch piece {
                case .kept(let range): output.append(UnsafeBufferPointer(rebasing: bytes[range]))
                case .new(let new): new.withUnsafeBufferPointer { output.append($0) }
                }
            }
        }
        return (output.data(), patch.slots)
    }

    /// `replaced` as the pieces to write in turn, for old bytes of which there are `count`: what the new file keeps of
    /// the old one and what it holds instead, so that a big file can be remade from the old one without either being
    /// whole in memory (`SiteTransaction.write(_:patching:with:)`).
    public func patch(count: Int, with value: (Int) -> String?) -> Patch? {
        guard written.last.map({ $0.start + $0.length <= count }) ?? true else { return nil }
        var pieces: [Patch.Piece] = []
        var moved: [Written] = []
        moved.reserveCapacity(written.count)
        var position = 0
        // Where the next piece starts in the new bytes.
        var length = 0
        for slot in written {
            guard slot.start >= position else { return nil }
            if var text = value(slot.slot) {
                if slot.start > position { pieces.append(.kept(position..<slot.start)) }
                length += slot.start - position
                var new = GrowingBytes(capacity: text.utf8.count + 64)
                text.withUTF8 { utf8 in
                    if slot.escaped { MustacheRenderer.appendEscaped(utf8, to: &new) } else { new.append(utf8) }
                }
                let bytes = new.withUnsafeBytes { [UInt8]($0) }
                pieces.append(.new(bytes))
                moved.append(Written(slot: slot.slot, escaped: slot.escaped, start: length, length: bytes.count))
                length += bytes.count
                position = slot.start + slot.length
            } else {
                moved.append(Written(slot: slot.slot, escaped: slot.escaped, start: length + slot.start - position, length: slot.length))
            }
        }
        if count > position { pieces.append(.kept(position..<count)) }
        length += count - position
        return Patch(pieces: pieces, slots: MustacheSlots(written: moved, shown: shown), count: length)
    }

    /// A file remade from old bytes (`patch(count:with:)`): its pieces in order, where its slots' values now are, and
    /// how many bytes it has.
    public struct Patch: Sendable {
        public enum Piece: Sendable, Equatable {
            /// These old bytes, as they are.
            case kept(Range<Int>)
            /// New bytes.
            case new([UInt8])
        }
        public var pieces: [Piece]
        public var slots: MustacheSlots
        public var count: Int
    }
}
