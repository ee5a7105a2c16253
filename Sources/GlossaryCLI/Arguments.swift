/// A usage mistake on the command line; exits 64 with the command's usage.
public struct UsageError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(_ message: String) {
        self.message = message
    }
}

/// The words after a subcommand, split into flags, options with values, and positional arguments.
///
/// Accepts `--name value` and `--name=value`; anything unknown is a usage error naming it. An option whose
/// value is optional (`--poll[=MS]`) takes one only after `=`: alone it counts as a flag, since the next word
/// can't tell a value from a positional argument.
struct Arguments {
    private(set) var flags: Set<String> = []
    private(set) var values: [String: String] = [:]
    private(set) var positional: [String] = []

    init(
        _ words: [String], flags knownFlags: Set<String>, options knownOptions: Set<String>, optionalValues knownOptionalValues: Set<String> = []
    ) throws(UsageError) {
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
            if name == "-h" { name = "--help" }
            if knownFlags.contains(name) {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
            } else if knownOptionalValues.contains(name) {
                if let inlineValue { values[name] = inlineValue } else { flags.insert(name) }
            } else if knownOptions.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else {
                    guard index < words.count else { throw UsageError("\(name) needs a value") }
                    values[name] = words[index]
                    index += 1
                }
            } else {
                throw UsageError("unknown option '\(name)'")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    subscript(option: String) -> String? { values[option] }

    func integer(_ option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[option] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }
}
