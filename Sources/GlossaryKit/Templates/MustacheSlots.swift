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
        guard written.last.map({ $0.start + $0.length <= old.count }) ?? true else { return nil }
        var output = GrowingBytes(capacity: old.count + 4096)
        var moved: [Written] = []
        moved.reserveCapacity(written.count)
        var position = 0
        let fits = old.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            for slot in written {
                guard slot.start >= position else { return false }
                let start: Int
                if var text = value(slot.slot) {
                    output.append(UnsafeBufferPointer(rebasing: bytes[position..<slot.start]))
                    start = output.count
                    text.withUTF8 { utf8 in
                        if slot.escaped { MustacheRenderer.appendEscaped(utf8, to: &output) } else { output.append(utf8) }
                    }
                } else {
                    start = output.count + slot.start - position
                    output.append(UnsafeBufferPointer(rebasing: bytes[position..<(slot.start + slot.length)]))
                }
                moved.append(Written(slot: slot.slot, escaped: slot.escaped, start: start, length: output.count - start))
                position = slot.start + slot.length
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[position...]))
            return true
        }
        return fits ? (output.data(), MustacheSlots(written: moved, shown: shown)) : nil
    }
}
