/* The glossary's terms for the term cards and the dictionary page: terms/index.json, fetched once per
   page, and words folded into term keys exactly as the build folds them. */
(function (Glossary) {
  "use strict";

  /* Folding mirrors TermKey (Sources/GlossaryKit/Definitions/TermKey.swift), step by step, so a word typed
     here finds the key the build wrote: Unicode NFC; case folding as Foundation's `.caseInsensitive` does
     it; typographic apostrophes (’ ‘) made plain; white space runs collapsed to one space and trimmed; NFC
     again. Tests/browser/test_fold.py checks it against the build for every cased letter. */

  // Lowercasing alone misses the foldings that are not lowercase mappings (ß → ss, ẞ → ss, ﬁ → fi, ς → σ,
  // µ → μ, ᾼ → αι): lowercasing, then uppercasing and lowercasing each character reaches them. Foundation
  // leaves the dotless ı and the Cyrillic letter variants U+1C80–U+1C88 as they are, so they stay too.
  var UNFOLDED = /[\u0131\u1c80-\u1c88]/;
  function foldCase(text) {
    return Array.from(text.toLowerCase(), function (c) {
      return UNFOLDED.test(c) ? c : c.toUpperCase().toLowerCase();
    }).join("");
  }

  // Swift replaces ’ only where it is a character of its own: not when a combining mark follows it.
  var APOSTROPHES = /[\u2018\u2019](?![\p{Grapheme_Extend}\p{Emoji_Modifier}])/gu;

  // Swift splits at characters (grapheme clusters) that start with white space, so a space takes the
  // combining marks after it along; Intl.Segmenter finds the same clusters. Without it (older browsers), a
  // close approximation: controls (tab, line breaks) never take marks, other spaces take extending ones.
  var STARTS_WITH_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
  var SPACE_RUN = /(?:[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000][\p{Grapheme_Extend}\p{Emoji_Modifier}\u200d]*|[\t\n\v\f\r\u0085\u2028\u2029])+/gu;
  var graphemes = window.Intl && Intl.Segmenter ? new Intl.Segmenter("en", { granularity: "grapheme" }) : null;

  function words(text) {
    if (!graphemes) return text.split(SPACE_RUN).filter(Boolean);
    var list = [], word = "";
    for (var segment of graphemes.segment(text)) {
      if (!STARTS_WITH_SPACE.test(segment.segment)) { word += segment.segment; continue; }
      if (word) list.push(word);
      word = "";
    }
    if (word) list.push(word);
    return list;
  }

  /** The term key of `text`, as the build's TermKey computes it ("" for blank text). */
  Glossary.foldWord = function (text) {
    var folded = foldCase(String(text).normalize("NFC")).replace(APOSTROPHES, "'");
    return words(folded).join(" ").normalize("NFC");
  };

  var request = null;

  /** The glossary's terms: {list, bySlug, byKey}, or null when terms/index.json can't be read. */
  Glossary.loadTerms = function () {
    if (!request) {
      var url = document.body.getAttribute("data-terms-json");
      request = fetch(url, { credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.json();
        })
        .then(function (data) {
          var terms = (data && Array.isArray(data.terms)) ? data.terms : [];
          var bySlug = {}, byKey = {};
          // The build wrote each term's key and alias keys already folded; each term's word folded here
          // is a key too, so a word typed as the glossary spells it is found even where this browser's
          // Unicode data is newer than the build's.
          terms.forEach(function (term) {
            bySlug[term.slug] = term;
            [term.key].concat(term.aliases || []).forEach(function (key) {
              if (typeof key === "string" && !byKey[key]) byKey[key] = term;
            });
          });
          terms.forEach(function (term) {
            var key = Glossary.foldWord(term.word);
            if (!byKey[key]) byKey[key] = term;
          });
          return { list: terms, bySlug: bySlug, byKey: byKey };
        })
        .catch(function () {
          request = null; // let a later interaction try again
          return null;
        });
    }
    return request;
  };
})(window.Glossary);
