/// A text as the automaton walks it: folded units, where matches may start and end, and the way back to the original.
///
/// Two readings of a text: `ASCIIUnits` reads plain ASCII in place (most text nodes of an English site: no copy,
/// folding is a lower-casing of the byte); `FoldedUnits` reads a `FoldedText` built for any other text.
protocol MatchUnits {
    var count: Int { get }
    /// The unit at `index`, folded but for ASCII capitals (the automaton reads them as small letters).
    func unit(_ index: Int) -> UInt8
    func isSpace(_ index: Int) -> Bool
    /// Whether a match may start or end at `index` (in `0...count`): it would not split a word there.
    func isBoundary(_ index: Int) -> Bool
    /// The first boundary after `index` (`count` at the latest).
    func nextBoundary(after index: Int) -> Int
    /// The byte offset in the original text of `index` (in `0...count`).
    func originalOffset(_ index: Int) -> Int
    /// Whether the original text of `range` is spelled exactly `exact` (a form's `FoldedText` built with `exact`).
    func spells(_ range: Range<Int>, exactly exact: [UInt8]) -> Bool
}

/// Plain ASCII text read in place: a unit is a byte.
struct ASCIIUnits: MatchUnits {
    let bytes: UnsafeBufferPointer<UInt8>

    var count: Int { bytes.count }

    @inline(__always)
    func unit(_ index: Int) -> UInt8 { bytes[index] }

    @inline(__always)
    func isSpace(_ index: Int) -> Bool { Self.isSpace(bytes[index]) }

    @inline(__always)
    func isBoundary(_ index: Int) -> Bool {
        index == 0 || index == bytes.count || !(isWord(index - 1) && isWord(index))
    }

    @inline(__always)
    func nextBoundary(after index: Int) -> Int {
        var next = index + 1
        guard next < bytes.count else { return bytes.count }
        var previousIsWord = isWord(index)
        while next < bytes.count {
            let nextIsWord = isWord(next)
            if !(previousIsWord && nextIsWord) { return next }
            previousIsWord = nextIsWord
            next += 1
        }
        return next
    }

    func originalOffset(_ index: Int) -> Int { index }

    func spells(_ range: Range<Int>, exactly exact: [UInt8]) -> Bool {
        var next = 0
        var index = range.lowerBound
        while index < range.upperBound {
            let byte: UInt8
            if Self.isSpace(bytes[index]) {
                byte = UInt8(ascii: " ")
                while index < range.upperBound, Self.isSpace(bytes[index]) { index += 1 }
            } else {
                byte = bytes[index]
                index += 1
            }
            guard next < exact.count, exact[next] == byte else { return false }
            next += 1
        }
        return next == exact.count
    }

    @inline(__always)
    private func isWord(_ index: Int) -> Bool {
        let byte = bytes[index]
        if Self.isWord(byte) { return true }
        guard byte == UInt8(ascii: "'") else { return false }
        return FoldedText.apostropheJoins(
            before: index > 0 && Self.isWord(bytes[index - 1]),
            after: index + 1 < bytes.count && Self.isWord(bytes[index + 1]),
            afterIsS: index + 1 < bytes.count && bytes[index + 1] | 0x20 == UInt8(ascii: "s"),
            afterNext: index + 2 < bytes.count && Self.isWord(bytes[index + 2]))
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 { byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }

    /// Letters, digits and `_`: the ASCII word characters of `ScalarFolding.Kind.word`.
    @inline(__always)
    static func isWord(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "_")
    }

    /// Space, tab, line feed, vertical tab, form feed, carriage return: ASCII's White_Space.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte &- 0x09 < 5 }

    /// Whether every byte is ASCII, eight at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}

/// Any other text, read through its `FoldedText` (whose units and flags the caller holds for the walk).
struct FoldedUnits: MatchUnits {
    let units: UnsafeBufferPointer<UInt8>
    let flags: UnsafeBufferPointer<UInt8>
    let folded: FoldedText
    let original: UnsafeBufferPointer<UInt8>
    let foldings: ScalarFolding.Cache

    var count: Int { units.count }

    @inline(__always)
    func unit(_ index: Int) -> UInt8 { units[index] }

    @inline(__always)
    func isSpace(_ index: Int) -> Bool { flags[index] & FoldedText.space != 0 }

    @inline(__always)
    func isBoundary(_ index: Int) -> Bool {
        guard index > 0, index < units.count else { return true }
        let (before, after) = (flags[index - 1], flags[index])
        return after & FoldedText.start != 0 && (before & after & FoldedText.word) == 0
    }

    @inline(__always)
    func nextBoundary(after index: Int) -> Int {
        var next = index + 1
        while next < units.count, !isBoundary(next) { next += 1 }
        return min(next, units.count)
    }

    func originalOffset(_ index: Int) -> Int { folded.originalOffset(index) }

    func spells(_ range: Range<Int>, exactly exact: [UInt8]) -> Bool {
        let span = UnsafeBufferPointer(rebasing: original[originalOffset(range.lowerBound)..<originalOffset(range.upperBound)])
        return FoldedText(utf8: span, exact: true, foldings: foldings).units == exact
    }
}
