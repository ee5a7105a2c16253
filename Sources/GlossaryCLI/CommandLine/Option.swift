/// One option a command accepts: how it is spelt, whether it takes a value, what it means.
///
/// Commands declare their options as values; parsing, `--help` and the shell completion scripts are all
/// made from the declarations, so they can't disagree.
struct Option: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// `--offline`.
        case flag
        /// `--source DIR` or `--source=DIR`.
        case value(placeholder: String)
        /// `--poll` or `--poll=MS` (never `--poll MS`, which would swallow the next word).
        case optionalValue(placeholder: String)
    }

    /// What a shell may offer as the option's value.
    enum Completion: Sendable, Hashable {
        case none
        case directory
        case file
        case words([String])
    }

    var name: String
    var kind: Kind
    var help: String
    var completion: Completion = .none

    static func flag(_ name: String, _ help: String) -> Option {
        Option(name: name, kind: .flag, help: help)
    }

    static func value(_ name: String, _ placeholder: String, _ help: String, completion: Completion = .none) -> Option {
        Option(name: name, kind: .value(placeholder: placeholder), help: help, completion: completion)
    }

    static func optionalValue(_ name: String, _ placeholder: String, _ help: String) -> Option {
        Option(name: name, kind: .optionalValue(placeholder: placeholder), help: help)
    }

    /// How the option appears in help: `--source DIR`, `--poll[=MS]`.
    var synopsis: String {
        switch kind {
        case .flag: name
        case .value(let placeholder): "\(name) \(placeholder)"
        case .optionalValue(let placeholder): "\(name)[=\(placeholder)]"
        }
    }

    var takesValue: Bool {
        if case .value = kind { return true }
        return false
    }
}
