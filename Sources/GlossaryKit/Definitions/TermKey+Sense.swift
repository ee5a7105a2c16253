extension TermKey {
    /// The key of one sense of a word: `crane` + `machine` → `crane (machine)`, the key `[[crane (machine)]]` has.
    public static func sense(word: String, sense: String) -> TermKey? {
        TermKey("\(word) (\(sense))")
    }

    /// A page's sense picks (`senses: {crane: machine}`) as the key each word's references take instead.
    static func sensePicks(_ senses: [String: String]) -> [TermKey: TermKey] {
        var picks: [TermKey: TermKey] = [:]
        for (word, sense) in senses {
            guard let key = TermKey(word), let picked = TermKey.sense(word: word, sense: sense) else { continue }
            picks[key] = picked
        }
        return picks
    }
}
