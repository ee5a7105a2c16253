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
        var builder = Builder(capacity: text.count + 8)
        var offset = 0
        while offset < text.count {
            let byte = text[offset]
            if byte < 0x80 {
                // Most of a text that is not plain ASCII still is: runs without white space or apostrophes go in bulk.
                var end = offset
                while end < text.count, text[end] < 0x80, !ASCIIUnits.isSpace(text[end]), text[end] != UInt8(ascii: "'") { end += 1 }
                if end > offset {
                    builder.appendASCII(UnsafeBufferPointer(rebasing: text[offset..<end]), exact: exact, origin: offset)
                } else {
                    builder.appendASCII(byte, exact: exact, origin: offset)
                    end += 1
                }
                offset = end
                continue
            }
            let (scalar, length) = Self.decode(text, at: offset)
            let folding = foldings[scalar]
            builder.append(exact ? folding.exact : folding.folded, kind: folding.kind, origin: offset)
            offset += length
        }
        builder.resolveApostrophes(in: text)
        (units, flags, origins) = (builder.units, builder.flags, builder.origins)
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

    /// The apostrophe rule, shared with `ASCIIUnits`: an apostrophe between two word characters belongs to the word
    /// (`don't`, `o'clock`), except before an `s` that ends the word (`cat's`: the possessive ends the word, so `cat`
    /// matches). The neighbours are judged by their own class, so `rock'n'roll` is one word.
    @inline(__always)
    static func apostropheJoins(before: Bool, after: Bool, afterIsS: Bool, afterNext: Bool) -> Bool {
        before && after && !(afterIsS && !afterNext)
    }
}

extension FoldedText {
    /// Appends scalars' spellings, collapsing white space and keeping combining marks in canonical order as it goes.
    private struct Builder {
        var units: [UInt8] = []
        var flags: [UInt8] = []
        var origins: [Int] = []
        /// Where the run of combining marks at the end of `units` starts, and the class of its last mark (0: no run).
        private var markRunStart = 0
        private var lastClass: UInt8 = 0
        private var apostrophes: [Int] = []

        init(capacity: Int) {
            units.reserveCapacity(capacity)
            flags.reserveCapacity(capacity)
            origins.reserveCapacity(capacity)
        }

        mutating func appendASCII(_ byte: UInt8, exact: Bool, origin: Int) {
            lastClass = 0
            if ASCIIUnits.isSpace(byte) { return appendSpace(origin: origin) }
            var flag = FoldedText.start
            if ASCIIUnits.isWord(byte) {
                flag |= FoldedText.word
            } else if byte == UInt8(ascii: "'") {
                apostrophes.append(units.count)
            }
            units.append(exact ? byte : ASCIIUnits.lowercased(byte))
            flags.append(flag)
            origins.append(origin)
        }

        /// ASCII without white space or apostrophes: each byte is its own unit, a start, a word character or not.
        mutating func appendASCII(_ run: UnsafeBufferPointer<UInt8>, exact: Bool, origin: Int) {
            lastClass = 0
            let first = units.count
            // Grown first and written in place: faster than appending a lazy map, byte by byte.
            units.append(contentsOf: run)
            flags.append(contentsOf: repeatElement(FoldedText.start, count: run.count))
            origins.append(contentsOf: repeatElement(0, count: run.count))
            units.withUnsafeMutableBufferPointer { units in
                flags.withUnsafeMutableBufferPointer { flags in
                    origins.withUnsafeMutableBufferPointer { origins in
                        for index in run.indices {
                            let byte = run[index]
                            if !exact { units[first + index] = ASCIIUnits.lowercased(byte) }
                            if ASCIIUnits.isWord(byte) { flags[first + index] |= FoldedText.word }
                            origins[first + index] = origin + index
                        }
                    }
                }
            }
        }

        mutating func append(_ spelling: ScalarFolding.Spelling, kind: ScalarFolding.Kind, origin: Int) {
            if kind == .space {
                lastClass = 0
                return appendSpace(origin: origin)
            }
            if kind == .apostrophe { apostrophes.append(units.count) }
            for (index, scalar) in spelling.scalars.enumerated() {
                let combiningClass = spelling.combiningClasses[index]
                var flag: UInt8 = index == 0 ? FoldedText.start : 0
                if kind == .word { flag |= FoldedText.word }
                if combiningClass != 0 && combiningClass < lastClass {
                    insertMark(scalar, combiningClass)
                    continue
                }
                if combiningClass != 0 && lastClass == 0 { markRunStart = units.count }
                lastClass = combiningClass
                for byte in UTF8.encode(scalar)! {
                    units.append(byte)
                    flags.append(flag)
                    origins.append(origin)
                    flag &= ~FoldedText.start
                }
            }
        }

        private mutating func appendSpace(origin: Int) {
            if let last = flags.last, last & FoldedText.space != 0 { return }
            units.append(UInt8(ascii: " "))
            flags.append(FoldedText.start | FoldedText.space)
            origins.append(origin)
        }

        /// Canonical ordering (the last step of NFD) for a mark that arrives after one of a higher class: it goes
        /// after the run's marks of its class or lower. The reordered run keeps the origin and start of its first
        /// unit and has no start inside: no match starts or ends between two marks anyway, as marks are word
        /// characters.
        private mutating func insertMark(_ scalar: Unicode.Scalar, _ combiningClass: UInt8) {
            var run = Array(String(decoding: units[markRunStart...], as: UTF8.self).unicodeScalars)
            let position = run.firstIndex { $0.properties.canonicalCombiningClass.rawValue > combiningClass } ?? run.count
            run.insert(scalar, at: position)
            let (firstFlag, origin) = (flags[markRunStart], origins[markRunStart])
            units.removeSubrange(markRunStart...)
            flags.removeSubrange(markRunStart...)
            origins.removeSubrange(markRunStart...)
            for mark in run {
                for byte in UTF8.encode(mark)! {
                    units.append(byte)
                    flags.append(units.count - 1 == markRunStart ? firstFlag : FoldedText.word)
                    origins.append(origin)
                }
            }
            lastClass = run.last!.properties.canonicalCombiningClass.rawValue
        }

        /// Marks the apostrophes that belong to their word (see `apostropheJoins`); `text` is the original, where the
        /// `s` of a possessive is looked for (an `s` of its own, not one folded from `ß`).
        mutating func resolveApostrophes(in text: UnsafeBufferPointer<UInt8>) {
            for index in apostrophes {
                let next = index + 1
                let afterIsS = next < units.count && flags[next] & FoldedText.start != 0 && text[origins[next]] | 0x20 == UInt8(ascii: "s")
                let joins = FoldedText.apostropheJoins(
                    before: index > 0 && flags[index - 1] & FoldedText.word != 0,
                    after: next < units.count && flags[next] & FoldedText.word != 0,
                    afterIsS: afterIsS,
                    afterNext: next + 1 < units.count && flags[next + 1] & FoldedText.word != 0)
                if joins { flags[index] |= FoldedText.word }
            }
        }
    }
}
