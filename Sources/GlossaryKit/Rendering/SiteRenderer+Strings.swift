/// The theme's strings that need more than the templates' `t`: those with values filled in (`{count}`), counts, dates
/// in the page's language, and the strings the theme's scripts show (`scriptStrings`).
extension SiteRenderer {
    /// The strings of the scripts on every page: the site search, term cards, copy buttons, the sidebar, recordings.
    static let pageScriptStrings = [
        "search", "search_site", "search_results", "searching", "no_results", "some_results", "one_result", "results", "search_failed",
        "glossary_term", "home", "card_no_summary", "read_entry", "status_admitted", "status_deprecated", "status_forbidden", "card_use", "copy", "copy_code",
        "copied", "copied_long", "not_copied", "not_copied_long",
        "pages", "recording_invalid", "recording_failed", "playback_blocked",
    ]

    /// The strings only the dictionary page's scripts show: its states and the dictionary's answers.
    static let dictionaryScriptStrings = [
        "empty_query", "no_definitions_found", "not_in_glossary", "not_in_glossary_or_dictionary", "too_many_requests", "dictionary_error",
        "dictionary_timeout", "network_failed", "looking_up", "dictionary_unreachable", "try_again", "from_glossary", "from_glossary_dictionary",
        "definition", "read_full_entry", "play", "accent_us", "accent_uk", "accent_au", "accent_ca", "pronunciation_of", "quote_open",
        "quote_close", "meaning", "synonyms", "antonyms", "source_label", "opens_in_new_tab", "licence_label", "from_free_dictionary_api",
    ]

    /// The theme's string `name` in `language`, each `{key}` in it replaced by `values[key]`.
    func text(_ name: String, in language: String, _ values: [String: String]) -> String {
        Self.filled(text(name, in: language), values)
    }

    /// `count` of something in `language`: the string `name_one` for one, else `name`, `{count}` filled in.
    func counted(_ name: String, _ count: Int, in language: String) -> String {
        text(count == 1 ? name + "_one" : name, in: language, ["count": String(count)])
    }

    /// `text` with each `{key}` of `values` replaced by its value, in one pass (a value is never filled in itself);
    /// other braces stay.
    static func filled(_ text: String, _ values: [String: String]) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.utf8.firstIndex(of: UInt8(ascii: "{")) {
            result += rest[..<open]
            let afterOpen = rest.utf8.index(after: open)
            if let close = rest.utf8[afterOpen...].firstIndex(of: UInt8(ascii: "}")), let value = values[String(rest[afterOpen..<close])] {
                result += value
                rest = rest[rest.utf8.index(after: close)...]
            } else {
                result += "{"
                rest = rest[afterOpen...]
            }
        }
        return result + rest
    }

    /// A date as written in front matter (`2024-03-05`, perhaps with a time after it) in `language`'s words: the
    /// locale file's `date_format` with its `{day}`, `{month}` (from `months`, twelve names separated by commas)
    /// and `{year}`; the first of the month is `day_one` (French `1er`). Anything else is shown as written.
    func dateText(_ date: String, in language: String) -> String {
        let parts = date.prefix(10).split(separator: "-")
        let months = monthNames[language] ?? Self.monthNames(text("months", in: language))
        guard date.count == 10 || date.dropFirst(10).first.map({ $0 == "T" || $0 == " " }) == true, parts.count == 3,
            parts[0].count == 4, let year = Int(parts[0]), parts[1].count == 2, let month = Int(parts[1]), parts[2].count == 2,
            let day = Int(parts[2]), (1...12).contains(month), (1...31).contains(day), months.count == 12
        else { return date }
        let dayText = day == 1 ? text("day_one", in: language) : String(day)
        return text("date_format", in: language, ["day": dayText, "month": months[month - 1], "year": String(year)])
    }

    /// A `months` string's names: split at commas, each without the spaces around it.
    static func monthNames(_ months: String) -> [String] {
        months.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
