import CYAML

/// A parsed YAML value with the place where it starts, so config readers can point at it.
///
/// Scalars stay strings: YAML's own typing (`3`, `true`, `2024-03-01`) is decided later by the typed
/// readers in `YAMLNode+Readers.swift`, which is why `isPlain` is kept.
public struct YAMLNode: Sendable, Equatable {
    /// The version of the libyaml the program runs with (`0.2.5`), for `glossary --version`.
    public static var libyamlVersion: String { String(cString: yaml_get_version_string()) }

    public enum Kind: Sendable, Equatable {
        /// `isPlain` is true for an unquoted scalar without an explicit tag (`3`, not `"3"` or `!!str 3`).
        case scalar(String, isPlain: Bool)
        case sequence([YAMLNode])
        /// Pairs in document order; repeated keys are kept, for the decoders to report.
        case mapping([Pair])
    }

    /// One `key: value` entry of a mapping.
    public struct Pair: Sendable, Equatable {
        public var key: YAMLNode
        public var value: YAMLNode

        public init(key: YAMLNode, value: YAMLNode) {
            self.key = key
            self.value = value
        }
    }

    public var kind: Kind
    public var location: SourceLocation

    public init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// Nesting beyond this is rejected rather than risking the stack on hostile input.
    static let maximumDepth = 200

    /// Parses one YAML document; nil when the text holds no document (empty, comments only, or a
    /// lone `~`/`null`).
    ///
    /// - Parameter lineOffset: added to every line, so YAML taken from a page's front matter is
    ///   located in the page file's own lines.
    /// - Throws: `yaml-syntax` for malformed YAML or a second document, `yaml-alias` for `*alias`
    ///   (anchors and aliases are not supported: a config is short enough to repeat a value).
    public static func parse(_ text: String, file: String, lineOffset: Int = 0) throws(Diagnostic) -> YAMLNode? {
        // libyaml asserts on a NULL input pointer, which an empty buffer would give.
        if text.isEmpty || text == "\u{FEFF}" { return nil }
        if let simple = SimpleYAML.parse(text, file: file, lineOffset: lineOffset) { return simple }
        return try parseWithLibyaml(text, file: file, lineOffset: lineOffset)
    }

    /// `parse` by libyaml alone (what `SimpleYAML` must agree with).
    static func parseWithLibyaml(_ text: String, file: String, lineOffset: Int = 0) throws(Diagnostic) -> YAMLNode? {
        if text.isEmpty || text == "\u{FEFF}" { return nil }
        let reader = try EventReader(text: text, file: file, lineOffset: lineOffset)
        let root = try reader.readStream()
        if let root, root.isNull { return nil }
        return root
    }
}

/// Turns libyaml's event stream into `YAMLNode`s; owns the parser and the input bytes it points into.
private final class EventReader {
    /// A libyaml event copied into Swift values, so the C event can be freed at once.
    enum Event {
        case streamStart, streamEnd, documentStart, documentEnd
        case alias(String)
        case scalar(String, isPlain: Bool)
        case sequenceStart, sequenceEnd, mappingStart, mappingEnd
    }

    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    private let file: String
    private let lineOffset: Int

    init(text: String, file: String, lineOffset: Int) throws(Diagnostic) {
        self.file = file
        self.lineOffset = lineOffset
        // yaml_parser_t points into itself and reads the input lazily, so both live on the heap
        // until deinit.
        parser = .allocate(capacity: 1)
        // With the encoding set, libyaml skips a byte order mark but counts it as a column; drop it
        // here so columns match what an editor shows.
        var utf8 = Substring(text).utf8
        if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { utf8 = utf8.dropFirst(3) }
        input = .allocate(capacity: utf8.count)
        _ = input.initialize(from: utf8)
        guard yaml_parser_initialize(parser) != 0 else {
            input.deallocate()
            parser.deallocate()
            throw Diagnostic(.yamlOutOfMemory, at: SourceLocation(file: file, line: lineOffset + 1, column: 1))
        }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, input.baseAddress, input.count)
    }

    deinit {
        yaml_parser_delete(parser)
        input.deallocate()
        parser.deallocate()
    }

    /// Reads the stream's first document and insists there is no second one.
    func readStream() throws(Diagnostic) -> YAMLNode? {
        guard case (.streamStart, _) = try next() else { throw unexpected() }
        let (event, location) = try next()
        switch event {
        case .streamEnd:
            return nil
        case .documentStart:
            break
        default:
            throw unexpected(at: location)
        }
        let (first, firstLocation) = try next()
        let root = try node(from: first, at: firstLocation, depth: 0)
        guard case (.documentEnd, _) = try next() else { throw unexpected() }
        let (after, afterLocation) = try next()
        switch after {
        case .streamEnd:
            return root
        default:
            throw Diagnostic(.yamlSecondDocument, at: afterLocation)
        }
    }

    private func node(from event: Event, at location: SourceLocation, depth: Int) throws(Diagnostic) -> YAMLNode {
        if depth > YAMLNode.maximumDepth {
            throw Diagnostic(.yamlTooDeep(limit: YAMLNode.maximumDepth), at: location)
        }
        switch event {
        case .scalar(let value, let isPlain):
            return YAMLNode(.scalar(value, isPlain: isPlain), at: location)
        case .alias(let name):
            throw Diagnostic(.yamlAlias(name: name), at: location)
        case .sequenceStart:
            var items: [YAMLNode] = []
            while true {
                let (itemEvent, itemLocation) = try next()
                if case .sequenceEnd = itemEvent { break }
                items.append(try node(from: itemEvent, at: itemLocation, depth: depth + 1))
            }
            return YAMLNode(.sequence(items), at: location)
        case .mappingStart:
            var pairs: [YAMLNode.Pair] = []
            while true {
                let (keyEvent, keyLocation) = try next()
                if case .mappingEnd = keyEvent { break }
                let key = try node(from: keyEvent, at: keyLocation, depth: depth + 1)
                let (valueEvent, valueLocation) = try next()
                let value = try node(from: valueEvent, at: valueLocation, depth: depth + 1)
                pairs.append(YAMLNode.Pair(key: key, value: value))
            }
            return YAMLNode(.mapping(pairs), at: location)
        default:
            throw unexpected(at: location)
        }
    }

    /// libyaml only emits well-formed event sequences, so this guards against a library bug.
    private func unexpected(at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic(.yamlUnexpected, at: location ?? SourceLocation(file: file, line: lineOffset + 1, column: 1))
    }

    private func next() throws(Diagnostic) -> (Event, SourceLocation) {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) != 0 else { throw syntaxError() }
        defer { yaml_event_delete(&event) }
        let location = self.location(of: event.start_mark)
        switch event.type {
        case YAML_STREAM_START_EVENT: return (.streamStart, location)
        case YAML_STREAM_END_EVENT: return (.streamEnd, location)
        case YAML_DOCUMENT_START_EVENT: return (.documentStart, location)
        case YAML_DOCUMENT_END_EVENT: return (.documentEnd, location)
        case YAML_ALIAS_EVENT: return (.alias(Self.string(event.data.alias.anchor)), location)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let value = String(
                decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            // plain_implicit is libyaml's "untagged and unquoted": the scalars whose type we infer.
            return (.scalar(value, isPlain: scalar.plain_implicit != 0), location)
        case YAML_SEQUENCE_START_EVENT: return (.sequenceStart, location)
        case YAML_SEQUENCE_END_EVENT: return (.sequenceEnd, location)
        case YAML_MAPPING_START_EVENT: return (.mappingStart, location)
        case YAML_MAPPING_END_EVENT: return (.mappingEnd, location)
        default: throw unexpected(at: location)
        }
    }

    private func location(of mark: yaml_mark_t) -> SourceLocation {
        // At the end of a text without a final line break libyaml moves its mark to the start of a line that
        // isn't there; an error found at the end is shown at the end of the last line instead.
        if mark.column == 0, Int(mark.line) > lastLine.index {
            return SourceLocation(file: file, line: lastLine.index + 1 + lineOffset, column: lastLine.length + 1)
        }
        // libyaml's marks are 0-based and count characters, matching SourceLocation's scalar columns.
        return SourceLocation(file: file, line: Int(mark.line) + 1 + lineOffset, column: Int(mark.column) + 1)
    }

    /// The input's last line: its 0-based number and its length in characters, counting lines as libyaml does.
    private lazy var lastLine: (index: Int, length: Int) = {
        var line = 0
        var column = 0
        var offset = 0
        while offset < input.count {
            if let length = lineBreakLength(at: offset) {
                line += 1
                column = 0
                offset += length
            } else {
                if input[offset] & 0xC0 != 0x80 { column += 1 }
                offset += 1
            }
        }
        return (line, column)
    }()

    /// The length in bytes of the line break at `offset`, nil when there is none: LF, CR, CRLF, and YAML 1.1's
    /// NEL, LS and PS, which libyaml counts as line breaks too.
    private func lineBreakLength(at offset: Int) -> Int? {
        switch input[offset] {
        case 0x0A: return 1
        case 0x0D: return offset + 1 < input.count && input[offset + 1] == 0x0A ? 2 : 1
        case 0xC2 where offset + 1 < input.count && input[offset + 1] == 0x85: return 2
        case 0xE2 where offset + 2 < input.count && input[offset + 1] == 0x80 && (input[offset + 2] == 0xA8 || input[offset + 2] == 0xA9):
            return 3
        default: return nil
        }
    }

    /// The parser's error as a `yaml-syntax` diagnostic at libyaml's problem mark.
    private func syntaxError() -> Diagnostic {
        let state = parser.pointee
        guard state.error != YAML_MEMORY_ERROR, let problem = state.problem else {
            return Diagnostic(.yamlOutOfMemory, at: SourceLocation(file: file, line: lineOffset + 1, column: 1))
        }
        var message = String(cString: problem)
        let location: SourceLocation
        var notes: [Diagnostic.Note] = []
        if state.error == YAML_READER_ERROR {
            // Reader errors (bad characters) carry a byte offset instead of a mark.
            location = locationOfByte(Int(state.problem_offset))
            if state.problem_value >= 0 {
                let hex = String(UInt32(state.problem_value), radix: 16, uppercase: true)
                message += " (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
            }
        } else {
            location = self.location(of: state.problem_mark)
            if let context = state.context {
                // libyaml says "while parsing a flow sequence": the note says where that began.
                var construct = String(cString: context)
                if construct.hasPrefix("while ") { construct.removeFirst("while ".count) }
                notes.append(Problem.yamlContextNote(construct, at: self.location(of: state.context_mark)))
            }
        }
        return Diagnostic(.yamlSyntax(detail: message), at: location, notes: notes)
    }

    private func locationOfByte(_ offset: Int) -> SourceLocation {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, input.count)
        while index < end {
            // The same line breaks as libyaml's marks count, so both kinds of error agree on lines.
            if let length = lineBreakLength(at: index) {
                line += 1
                column = 1
                index += length
            } else {
                // Only lead bytes start a new scalar; continuation bytes belong to the previous one.
                if input[index] & 0xC0 != 0x80 { column += 1 }
                index += 1
            }
        }
        return SourceLocation(file: file, line: line + lineOffset, column: column)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }
}
