import Foundation
import GlossaryKit

/// `glossary define WORD`: the definition a build would use for a word, and where it came from — the dictionary
/// page's search, in the terminal.
struct DefineCommand: Command {
    static let name = "define"
    static let abstract = "Print the definition a build would use for a word"
    static let discussion = """
        Looks WORD up as a build of the site in --source would: the team's entries, the cache, then the providers in
        dictionary.providers (the dictionary API, WordNet), and a word none of them has as its base form (keyboards
        → keyboard). Prints the word, its pronunciation, its meanings by part of speech with numbered definitions,
        examples, synonyms and antonyms, and its source and licence; --json prints the entries as JSON. A fetched
        answer is stored in the cache, as a build stores it. Exits 1 when no source has the word.
        """
    static let arguments = [Argument(synopsis: "WORD")]

    static let provider = Option.value(
        "--provider", "NAME", "Ask only this dictionary: api (with its cache) or wordnet",
        completion: .words(DictionaryProvider.allCases.map(\.rawValue)))
    static let json = Option.flag("--json", "Print the definition as JSON (the entries in the dictionary API's shape)")
    static let options = OptionGroup.site + [provider, json] + OptionGroup.diagnostics

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        guard parsed.positional.count == 1 else {
            throw UsageError(parsed.positional.isEmpty ? "missing WORD" : "define takes one word (quote a phrase: \"ice cream\")")
        }
        let word = parsed.positional[0]
        var only: DictionaryProvider?
        if let name = parsed[Self.provider] {
            guard let provider = DictionaryProvider(rawValue: name) else {
                let names = DictionaryProvider.allCases.map(\.rawValue).joined(separator: " or ")
                throw UsageError("--provider must be \(names), not '\(ParsedArguments.shown(name))'")
            }
            only = provider
        }
        let options = try BuildCommand.buildOptions(parsed, context: context)
        let printer = try DiagnosticPrinter(parsed, context: context, root: options.source)
        let builder = SiteBuilder(options: options, makeFetcher: BuildCommand.fetcherFactory(for: options, context: context))
        guard let lookup = await builder.lookUp(word, only: only) else { throw UsageError("'\(ParsedArguments.shown(word))' is not a word") }
        printer.print(lookup.diagnostics)
        if lookup.diagnostics.contains(where: { $0.severity == .error }) { return ExitCode.failure }
        guard let definition = lookup.definition else {
            context.console.printError(notFoundMessage(word, lookup))
            return ExitCode.failure
        }
        context.console.out(parsed.has(Self.json) ? DefinitionText.json(definition, lookup) : DefinitionText.text(definition, lookup))
        return ExitCode.success
    }

    /// `no definition of 'xyz' in the team's entries, the cache, the dictionary API or WordNet`, and why the API gave
    /// nothing when it could not be asked.
    static func notFoundMessage(_ word: String, _ lookup: SiteBuilder.WordLookup) -> String {
        let names = lookup.sources.map(\.rawValue)
        let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.first ?? "any dictionary"
        let why: String
        switch lookup.api {
        case .asked: why = ""
        case .offline: why = " (offline: the dictionary API was not asked)"
        case .failed(let unusable): why = unusable ? " (the dictionary API's answer could not be used)" : " (the dictionary API could not be reached)"
        }
        return "no definition of \(DiagnosticText.quoted(word)) in \(list)\(why)"
    }
}
