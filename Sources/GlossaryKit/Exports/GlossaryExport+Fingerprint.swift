extension GlossaryExport {
    /// The fingerprint of the value `glossary.json`, `.csv` and `.tbx` are made from: every field of the model, the
    /// terms in order, fingerprinted on `jobs` cores in runs of 256 terms (the same on any number of cores). A field
    /// added to the model must be combined here (the tests compare these fields with the model's).
    func fingerprint(jobs: Int) -> Fingerprint {
        let count = terms.count
        let runs = stride(from: 0, to: count, by: 256).map { $0..<min($0 + 256, count) }
        let parts = runs.parallelMap(jobs: jobs) { run -> Fingerprint in
            var hasher = FingerprintHasher()
            for term in terms[run] { term.combine(into: &hasher) }
            return hasher.finish()
        }
        var hasher = FingerprintHasher()
        hasher.combine(title)
        hasher.combine(description)
        hasher.combine(language)
        hasher.combineCount(languages.count)
        for language in languages { hasher.combine(language) }
        hasher.combine(root)
        hasher.combine(isAbsolute)
        hasher.combineCount(count)
        for part in parts { hasher.combine(part) }
        return hasher.finish()
    }
}

extension GlossaryExport.Term {
    func combine(into hasher: inout FingerprintHasher) {
        hasher.combine(key)
        hasher.combine(word)
        hasher.combine(sense)
        hasher.combine(slug)
        hasher.combine(url)
        hasher.combine(summary)
        hasher.combine(definitionText)
        hasher.combine(definitionHTML)
        hasher.combine(partOfSpeech)
        hasher.combine(phonetic)
        hasher.combineCount(audio.count)
        for audio in audio {
            hasher.combine(audio.url)
            hasher.combine(audio.accent)
            hasher.combine(audio.text)
            hasher.combine(audio.sourceURL)
            GlossaryExport.combine(audio.license, into: &hasher)
        }
        GlossaryExport.combine(aliases, into: &hasher)
        GlossaryExport.combine(forms, into: &hasher)
        hasher.combine(source.kind)
        GlossaryExport.combine(source.urls, into: &hasher)
        hasher.combineCount(source.licenses.count)
        for license in source.licenses { GlossaryExport.combine(license, into: &hasher) }
        hasher.combine(source.retrieved)
        hasher.combineCount(pages.count)
        for page in pages {
            hasher.combine(page.title)
            hasher.combine(page.url)
        }
        hasher.combineCount(statuses.count)
        for (name, status) in statuses.sorted(by: { $0.key < $1.key }) {
            hasher.combine(name)
            hasher.combine(status)
        }
        hasher.combine(use)
        hasher.combine(useSlug)
        hasher.combine(language)
        hasher.combine(concept)
    }
}

extension GlossaryExport {
    fileprivate static func combine(_ texts: [String], into hasher: inout FingerprintHasher) {
        hasher.combineCount(texts.count)
        for text in texts { hasher.combine(text) }
    }

    fileprivate static func combine(_ license: License?, into hasher: inout FingerprintHasher) {
        hasher.combine(license != nil)
        guard let license else { return }
        hasher.combine(license.name)
        hasher.combine(license.url)
    }
}
