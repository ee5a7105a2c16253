/* The glossary's terms for the term cards and the dictionary page, and words folded into term keys exactly
   as the build folds them. terms/index.json holds every term, or names shards of consecutive key ranges with
   the first key of each (README, "Output files"): each file is fetched once per page, when a key needs it. */
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

  var index = null;    // the promise of terms/index.json: {url, whole} or {url, shards}
  var shardFiles = {}; // the promise of each shard's terms, by URL
  var PREFIX_SHARDS = 3;

  function getJSON(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    });
  }

  /* A file's terms, {list, byKey}. The build wrote each term's key and alias keys already folded; each term's
     word folded here is a key too, so a word typed as the glossary spells it is found even where this
     browser's Unicode data is newer than the build's. */
  function indexed(data) {
    var terms = (data && Array.isArray(data.terms)) ? data.terms : [];
    var byKey = Object.create(null); // no prototype: a key may be "__proto__"
    terms.forEach(function (term) {
      [term.key].concat(term.aliases || []).forEach(function (key) {
        if (typeof key === "string" && !byKey[key]) byKey[key] = term;
      });
    });
    terms.forEach(function (term) {
      var key = Glossary.foldWord(term.word);
      if (!byKey[key]) byKey[key] = term;
    });
    return { list: terms, byKey: byKey };
  }

  /** Fetches terms/index.json (once; again after a failure). */
  Glossary.loadTermIndex = function () {
    if (!index) {
      var url = new URL(document.body.getAttribute("data-terms-json"), window.location.href);
      index = getJSON(url).then(function (data) {
        if (!data || !Array.isArray(data.shards)) return { url: url, whole: indexed(data) };
        var shards = data.shards.filter(function (shard) {
          return shard && typeof shard.first === "string" && typeof shard.file === "string" && new URL(shard.file, url).origin === url.origin;
        });
        return { url: url, shards: shards };
      });
      index.catch(function () { index = null; }); // let a later interaction try again
    }
    return index;
  };

  function shard(info, number) {
    var url = new URL(info.shards[number].file, info.url).href;
    if (!shardFiles[url]) {
      shardFiles[url] = getJSON(url).then(indexed);
      shardFiles[url].catch(function () { delete shardFiles[url]; });
    }
    return shardFiles[url];
  }

  /* The last shard whose first key is at or before `key` (-1 for none): JavaScript compares strings by UTF-16
     code units, as the build sorted the keys. */
  function shardOf(shards, key) {
    var low = 0, high = shards.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (shards[middle].first <= key) low = middle + 1; else high = middle;
    }
    return low - 1;
  }

  /** The term whose key (or alias key, or folded word) is `key`, or null (also when it can't be fetched). */
  Glossary.lookupTerm = function (key) {
    return Glossary.loadTermIndex().then(function (info) {
      if (info.whole) return info.whole;
      var number = shardOf(info.shards, key);
      return number < 0 ? null : shard(info, number);
    }).then(function (terms) {
      return terms && Object.prototype.hasOwnProperty.call(terms.byKey, key) ? terms.byKey[key] : null;
    }, function () { return null; });
  };

  /* Up to `limit` terms of `parts` (files' terms) one of whose names (word, key, alias key) starts with
     `query`, in order, then, with `anywhere`, those where it appears later on. */
  function matching(parts, query, limit, anywhere) {
    var starts = [], contains = [], seen = {};
    parts.forEach(function (part) {
      part.list.forEach(function (term) {
        if (seen[term.url]) return;
        var names = [Glossary.foldWord(term.word), term.key].concat(term.aliases || []);
        if (names.some(function (name) { return name.indexOf(query) === 0; })) starts.push(term);
        else if (anywhere && names.some(function (name) { return name.indexOf(query) > 0; })) contains.push(term);
        else return;
        seen[term.url] = true;
      });
    });
    return starts.concat(contains).slice(0, limit);
  }

  /** Up to `limit` terms one of whose names starts with `query` (a key), then, while terms/index.json is one
      file, those where it appears later on; null when the terms can't be fetched. In shards: from the one
      where the query would sort, then the next ones while fewer than `limit` are found and their first key
      starts with the query (at most PREFIX_SHARDS). */
  Glossary.findTerms = function (query, limit) {
    return Glossary.loadTermIndex().then(function (info) {
      if (info.whole) return matching([info.whole], query, limit, true);
      var parts = [];
      function from(n) {
        return shard(info, n).then(function (part) {
          parts.push(part);
          var found = matching(parts, query, limit, false);
          var more = parts.length < PREFIX_SHARDS && n + 1 < info.shards.length && info.shards[n + 1].first.indexOf(query) === 0;
          return found.length < limit && more ? from(n + 1) : found;
        });
      }
      return from(Math.max(0, shardOf(info.shards, query)));
    }).catch(function () { return null; });
  };
})(window.Glossary);
