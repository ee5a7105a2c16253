import Foundation
import Synchronization

/// What the builds of a session share of the dictionaries besides the cache (the preview server keeps one for all its
/// builds): WordNet as opened, or why it couldn't be; and the words whose fetch failed lately, which a rebuild leaves
/// alone for a while so a dictionary that is down doesn't slow every keystroke of a preview.
public final class Dictionaries: Sendable {
    /// WordNet's data folder: the build's option, else the environment's (`WNSEARCHDIR`, `WNHOME`), else Debian's.
    let wordNetFolder: String
    private let opened = Mutex<Result<WordNetDictionary, WordNetError>?>(nil)
    private let failed = Mutex<(context: String, at: [TermKey: Date])>(("", [:]))

    /// How long a term that could not be fetched is left alone before a rebuild asks again.
    static let unavailableRetry: TimeInterval = 60

    public init(options: BuildOptions) {
        wordNetFolder = WordNet.normalisedFolder(options.wordNetFolder ?? WordNet.defaultDataFolder(ProcessInfo.processInfo.environment))
    }

    /// WordNet for a build of `config`, opened once: nil (and no problem) when the site isn't English or `needed` is
    /// false; nil and one warning when its data can't be opened and the site asked for WordNet.
    func wordNet(for config: SiteConfig, needed: Bool) -> (WordNetDictionary?, Diagnostic?) {
        // Word forms use WordNet's Morphy even where WordNet is not asked for definitions; the warning is for sites
        // that asked for WordNet.
        guard needed, WordFormResolver.isEnglish(config.language) else { return (nil, nil) }
        let result = opened.withLock { opened in
            if let opened { return opened }
            let result = Result(catching: { () throws(WordNetError) in WordNetDictionary(try WordNet.open(dataFolder: wordNetFolder)) })
            opened = result
            return result
        }
        switch result {
        case .success(let dictionary): return (dictionary, nil)
        case .failure(let error):
            return (nil, config.dictionary.providers.contains(.wordNet) ? Diagnostic(.wordNetUnavailable(reason: error.description)) : nil)
        }
    }

    /// The words whose fetch failed less than `unavailableRetry` before `now`, under `context` (the language, cache
    /// and API they were fetched with: a change of those forgets them).
    func resting(context: String, now: Date) -> Set<TermKey> {
        failed.withLock { failed in
            if failed.context != context { failed = (context, [:]) }
            return Set(failed.at.filter { now.timeIntervalSince($0.value) < Self.unavailableRetry }.keys)
        }
    }

    /// Notes which of the words fetched at `now` failed.
    func fetched(_ keys: [TermKey], failures: Set<TermKey>, now: Date) {
        failed.withLock { failed in
            for key in keys { failed.at[key] = failures.contains(key) ? now : nil }
        }
    }
}
