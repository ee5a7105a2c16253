/// The YAML most front matter is, read without libyaml: every page of a site starts with a few lines of it, and
/// going through libyaml's events costs more than the rest of reading them.
///
/// "Simple" is a mapping whose every line is one of
/// - `key: value`, the key a letter then letters, digits, `_` and `-`, at the start of the line;
/// - `key:` followed by at least one `- value` line (all indented alike, by any number of spaces);
/// - `key: [value, value]`, a flow list of values, each after `[` or `, ` exactly;
///
/// where a value is a plain scalar that can't be read any other way (no `:`, `#`, brackets or braces, no indicator
/// first, no space last) or a quoted one with no escapes (`"…"` without `"` or `\` inside, `'…'` without `'`).
/// The text is printable ASCII and line feeds, with no blank line. Anything else (a comment, a block scalar, a
/// flow collection, a tab, a letter outside ASCII) gives nil, and libyaml reads it: the result is always the nodes
/// libyaml gives, at the same lines and columns, which `YAMLNodeTests` checks on thousands of random texts.
enum SimpleYAML {
    static func parse(_ text: String, file: String, lineOffset: Int) -> YAMLNode? {
        var text = text
        return text.withUTF8 { bytes in parse(bytes, file: file, lineOffset: lineOffset) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String, lineOffset: Int) -> YAMLNode? {
        guard !bytes.isEmpty else { return nil }
        func place(_ line: Int, _ column: Int) -> SourceLocation { SourceLocation(file: file, line: line + 1 + lineOffset, column: column + 1) }
        var pairs: [YAMLNode.Pair] = []
        /// The key whose list is being read, with its items so far and their indent.
        var list: (key: YAMLNode, items: [YAMLNode], indent: Int, line: Int)?
        func endList() -> Bool {
            guard let open = list else { return true }
            list = nil
            guard !open.items.isEmpty else { return false }
            pairs.append(YAMLNode.Pair(key: open.key, value: YAMLNode(.sequence(open.items), at: place(open.line, open.indent))))
            return true
        }
        var start = 0
        var line = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A {
                guard (0x20...0x7E).contains(bytes[end]) else { return nil }
                end += 1
            }
            guard end > start else { return nil }
            let first = bytes[start]
            if isLetter(first) {
                guard endList() else { return nil }
                var colon = start + 1
                while colon < end, isKeyByte(bytes[colon]) { colon += 1 }
                guard colon < end, bytes[colon] == UInt8(ascii: ":"), colon - start <= 1000 else { return nil }
                let key = YAMLNode(
                    .scalar(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<colon]), as: UTF8.self), isPlain: true), at: place(line, 0))
                if colon + 1 == end {
                    list = (key, [], 0, line)
                } else {
                    var valueStart = colon + 1
                    guard bytes[valueStart] == UInt8(ascii: " ") else { return nil }
                    while valueStart < end, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
                    // `key: ` with nothing after the spaces is a null, left to libyaml.
                    guard valueStart < end else { return nil }
                    if bytes[valueStart] == UInt8(ascii: "[") {
                        guard let items = flowList(bytes, valueStart, end, { place(line, $0 - start) }) else { return nil }
                        pairs.append(YAMLNode.Pair(key: key, value: YAMLNode(.sequence(items), at: place(line, valueStart - start))))
                    } else {
                        guard let value = scalar(bytes, valueStart, end) else { return nil }
                        pairs.append(YAMLNode.Pair(key: key, value: YAMLNode(value, at: place(line, valueStart - start))))
                    }
                }
            } else {
                // `- value`, under a key.
                guard list != nil else { return nil }
                var dash = start
                while dash < end, bytes[dash] == UInt8(ascii: " ") { dash += 1 }
                let indent = dash - start
                guard dash + 2 < end, bytes[dash] == UInt8(ascii: "-"), bytes[dash + 1] == UInt8(ascii: " ") else { return nil }
                if list!.items.isEmpty {
                    list!.indent = indent
                    list!.line = line
                } else if list!.indent != indent {
                    return nil
                }
                var valueStart = dash + 2
                while valueStart < end, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
                guard let value = scalar(bytes, valueStart, end) else { return nil }
                list!.items.append(YAMLNode(value, at: place(line, valueStart - start)))
            }
            start = end + 1
            line += 1
        }
        guard endList(), let firstKey = pairs.first?.key else { return nil }
        return YAMLNode(.mapping(pairs), at: firstKey.location)
    }

    /// The items of the flow list `bytes[start..<end]` (`[a, "b c"]`, the rest of its line): scalars, each after `[` or
    /// `, ` exactly; `at` places the item starting at an offset.
    private static func flowList(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ at: (Int) -> SourceLocation
    ) -> [YAMLNode]? {
        guard end - start >= 2, bytes[end - 1] == UInt8(ascii: "]") else { return nil }
        var items: [YAMLNode] = []
        var itemStart = start + 1
        if itemStart == end - 1 { return items }
        while true {
            // An item ends at the first `,` or `]` outside its quotes.
            var itemEnd = itemStart
            let quote = bytes[itemStart]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                itemEnd += 1
                while itemEnd < end - 1, bytes[itemEnd] != quote { itemEnd += 1 }
                guard itemEnd < end - 1 else { return nil }
                itemEnd += 1
            } else {
                while itemEnd < end - 1, bytes[itemEnd] != UInt8(ascii: ","), bytes[itemEnd] != UInt8(ascii: "]") { itemEnd += 1 }
            }
            guard let item = scalar(bytes, itemStart, itemEnd) else { return nil }
            items.append(YAMLNode(item, at: at(itemStart)))
            if itemEnd == end - 1 { return items }
            guard itemEnd + 2 < end - 1, bytes[itemEnd] == UInt8(ascii: ","), bytes[itemEnd + 1] == UInt8(ascii: " ") else { return nil }
            itemStart = itemEnd + 2
        }
    }

    /// The scalar `bytes[start..<end]` is (the rest of its line), if it is one this reader takes.
    private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> YAMLNode.Kind? {
        guard start < end else { return nil }
        let first = bytes[start]
        func string(_ from: Int, _ to: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self) }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            guard end - start >= 2, bytes[end - 1] == first else { return nil }
            for index in (start + 1)..<(end - 1) where bytes[index] == first || bytes[index] == UInt8(ascii: "\\") && first == UInt8(ascii: "\"") {
                return nil
            }
            return .scalar(string(start + 1, end - 1), isPlain: false)
        }
        guard !isIndicator(first), bytes[end - 1] != UInt8(ascii: " ") else { return nil }
        for index in start..<end where isUnsafeInPlain(bytes[index]) { return nil }
        return .scalar(string(start, end), isPlain: true)
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// What may not start a plain scalar here: YAML's indicators (`-`, `?` and `:` may, before a letter, but aren't
    /// taken), and a space.
    private static func isIndicator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"),
            UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
            UInt8(ascii: "`"), UInt8(ascii: " "):
            return true
        default:
            return false
        }
    }

    /// What a plain scalar here may not hold anywhere: `:` and `#` (which may end it, or start a comment), brackets
    /// and braces.
    private static func isUnsafeInPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ":"), UInt8(ascii: "#"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"): return true
        default: return false
        }
    }
}
