import GlossaryKit

/// The words after a command, checked against the command's declared options: flags, option values and
/// positional arguments.
///
/// Accepts `--name value` and `--name=value`; an option declared with an optional value takes it only as
/// `--name=value`. Anything undeclared is a usage error naming it. `--` ends the options.
struct ParsedArguments {
    private(set) var flags: Set<String> = []
    private(set) var values: [String: String] = [:]
    private(set) var positional: [String] = []

    init(_ words: [String], options: [Option]) throws(UsageError) {
        let declared = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" {
                positional += words[index...]
                break
            }
            guard word.hasPrefix("-"), word != "-" else {
                positional.append(word)
                continue
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = declared[name] else { throw UsageError("unknown option '\(Self.shown(name))'") }
            switch option.kind {
            case .flag:
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
            case .optionalValue:
                flags.insert(name)
                if let inlineValue { values[name] = inlineValue }
            case .value:
                if let inlineValue {
                    values[name] = inlineValue
                } else {
                    guard index < words.count else { throw UsageError("\(name) needs a value") }
                    values[name] = words[index]
                    index += 1
                }
            }
        }
    }

    func has(_ option: Option) -> Bool { flags.contains(option.name) || values[option.name] != nil }

    subscript(option: Option) -> String? { values[option.name] }

    func integer(_ option: Option, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[option.name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("\(option.name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(Self.shown(text))'")
        }
        return value
    }

    /// No positional arguments, or a usage error naming the first.
    func expectNoPositional() throws(UsageError) {
        if let first = positional.first { throw UsageError("unexpected argument '\(Self.shown(first))'") }
    }

    /// A word from the command line as a message shows it: escaped and shortened.
    static func shown(_ word: String) -> String {
        DiagnosticText.shortened(DiagnosticText.escaped(word))
    }
}
