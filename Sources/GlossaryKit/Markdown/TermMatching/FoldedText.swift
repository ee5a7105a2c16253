/// A text as the term matcher reads it: the UTF-8 of each scalar's folding, with a map back to the original bytes.
///
/// Built from every form, and from each text that is not plain ASCII (ASCII text is read in place, see `ASCIIUnits`).
/// Each scalar becomes its canonical decomposition, case-folded unless `exact`; a run of white space becomes one
/// space; combining marks are put in canonical order (so `a\u{323}\u{301}` and `a\u{301}\u{323}` are one spelling).
/// Every unit (byte) keeps the offset of the original scalar it came from, so a match found in the folded text
/// reports its range in the original text even where folding changed lengths (`Straße` → `strasse`).
struct FoldedText {
    static let word: UInt8 = 1
    /// The first unit of an original scalar (or of a run of white space): only there can a match start or end.
    static let start: UInt8 = 2
    static let space: UInt8 = 4

    private(set) var units: [UInt8] = []
    private(set) var flags: [UInt8] = []
    /// The original byte offset of the scalar each unit came from.
    private(set) var origins: [Int] = []
    let originalCount: Int

    init(utf8 text: UnsafeBufferPointer<UInt8>, exact: Bool, foldings: ScalarFolding.Cache) {
        originalCount = text.count
        var pieces = Pieces()
        pieces.reserve(text.count)
        var offset = 0
        while offset < text.count {
            let (scalar, length) = Self.decode(text, at: offset)
            if scalar.value < 0x80 {
                let byte = UInt8(scalar.value)
                let kind = ScalarFolding.kind(of: scalar)
                let spelled: Unicode.Scalar =
                    kind == .space ? " " : exact || byte < UInt8(ascii: "A") || byte > UInt8(ascii: "Z") ? scalar : Unicode.Scalar(byte + 32)
                pieces.append(spelled, kind: kind, origin: offset, first: true)
            } else {
                let folding = foldings[scalar]
                for (index, piece) in (exact ? folding.exact : folding.folded).enumerated() {
                    pieces.append(piece, kind: folding.kind, origin: offset, first: index == 0)
                }
            }
            offset += length
        }
        pieces.orderCombiningMarks()
        pieces.resolveApostrophes()
        units.reserveCapacity(pieces.scalars.count)
        flags.reserveCapacity(pieces.scalars.count)
        origins.reserveCapacity(pieces.scalars.count)
        for index in pieces.scalars.indices {
            var flag = pieces.flags[index]
            for byte in UTF8.encode(pieces.scalars[index])! {
                units.append(byte)
                flags.append(flag)
                origins.append(pieces.origins[index])
                flag &= ~Self.start
            }
        }
    }

    /// The original byte offset of folded position `index` (`units.count` maps to the end of the original).
    func originalOffset(_ index: Int) -> Int { index < origins.count ? origins[index] : originalCount }

    /// The units without a leading or trailing space: how a form is entered in the automaton.
    var trimmedUnits: ArraySlice<UInt8> {
        var slice = units[...]
        if flags.first.map({ $0 & Self.space != 0 }) == true { slice = slice.dropFirst() }
        if flags.last.map({ $0 & Self.space != 0 }) == true, !slice.isEmpty { slice = slice.dropLast() }
        return slice
    }

    /// The scalar at `offset` and its length in bytes; a malformed sequence reads as one U+FFFD per byte.
    static func decode(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Unicode.Scalar, Int) {
        let lead = text[offset]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, value) = (4, UInt32(lead & 0x07))
        default: return ("\u{FFFD}", 1)
        }
        guard offset + length <= text.count else { return ("\u{FFFD}", 1) }
        for index in 1..<length {
            let byte = text[offset + index]
            guard byte & 0xC0 == 0x80 else { return ("\u{FFFD}", 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        // Overlong forms, surrogates and values past U+10FFFF are malformed.
        let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= smallest, let scalar = Unicode.Scalar(value) else { return ("\u{FFFD}", 1) }
        return (scalar, length)
    }
}

extension FoldedText {
    /// The folded scalars before they are encoded: reordering and the apostrophe rule work on scalars.
    private struct Pieces {
        var scalars: [Unicode.Scalar] = []
        var flags: [UInt8] = []
        var origins: [Int] = []
        var isApostrophe: [Bool] = []

        mutating func reserve(_ count: Int) {
            scalars.reserveCapacity(count)
            flags.reserveCapacity(count)
            origins.reserveCapacity(count)
            isApostrophe.reserveCapacity(count)
        }

        mutating func append(_ scalar: Unicode.Scalar, kind: ScalarFolding.Kind, origin: Int, first: Bool) {
            if kind == .space, let last = flags.last, last & FoldedText.space != 0 { return }
            var flag: UInt8 = first ? FoldedText.start : 0
            if kind == .word { flag |= FoldedText.word }
            if kind == .space { flag |= FoldedText.space }
            scalars.append(scalar)
            flags.append(flag)
            origins.append(origin)
            isApostrophe.append(kind == .apostrophe)
        }

        /// Canonical ordering (the last step of NFD): a run of combining marks sorted, stably, by combining class.
        ///
        /// A reordered run takes the origin of its first mark and no start inside it: no match starts or ends
        /// between two marks anyway, as marks are word characters.
        mutating func orderCombiningMarks() {
            var index = 0
            while index < scalars.count {
                guard scalars[index].properties.canonicalCombiningClass.rawValue != 0 else {
                    index += 1
                    continue
                }
                var end = index + 1
                while end < scalars.count, scalars[end].properties.canonicalCombiningClass.rawValue != 0 { end += 1 }
                if end - index > 1 {
                    let run = scalars[index..<end]
                    let sorted = run.enumerated().sorted {
                        let (left, right) = ($0.element.properties.canonicalCombiningClass, $1.element.properties.canonicalCombiningClass)
                        return left != right ? left < right : $0.offset < $1.offset
                    }.map(\.element)
                    if !sorted.elementsEqual(run) {
                        scalars.replaceSubrange(index..<end, with: sorted)
                        for inner in index..<end {
                            origins[inner] = origins[index]
                            if inner > index { flags[inner] &= ~FoldedText.start }
                        }
                    }
                }
                index = end
            }
        }

        /// An apostrophe between two word characters belongs to the word (`don't`, `o'clock`), except before a final
        /// `s` (`cat's`: the possessive ends the word, so `cat` matches). Neighbours are judged by their own class,
        /// so `rock'n'roll` is one word.
        mutating func resolveApostrophes() {
            for index in scalars.indices where isApostrophe[index] {
                if FoldedText.apostropheJoins(
                    before: index > 0 && flags[index - 1] & FoldedText.word != 0,
                    after: index + 1 < scalars.count && flags[index + 1] & FoldedText.word != 0,
                    afterIsS: index + 1 < scalars.count && (scalars[index + 1] == "s" || scalars[index + 1] == "S"),
                    afterNext: index + 2 < scalars.count && flags[index + 2] & FoldedText.word != 0)
                {
                    flags[index] |= FoldedText.word
                }
            }
        }
    }

    /// The apostrophe rule on the classes around an apostrophe (shared with `ASCIIUnits`).
    @inline(__always)
    static func apostropheJoins(before: Bool, after: Bool, afterIsS: Bool, afterNext: Bool) -> Bool {
        before && after && !(afterIsS && !afterNext)
    }
}
