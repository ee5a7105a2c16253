/* The dictionary page's result views, as DOM trees: the states (loading, not found, error), a term of the
   glossary, and a word's entries from the dictionary API. Building only: dictionary.js decides what to
   show. Every string from the API goes in as text, and only http(s) addresses become links or recordings. */
(function (Glossary) {
  "use strict";

  var el = Glossary.el;
  var say = Glossary.say;
  var safeURL = Glossary.safeURL;

  function fragmentOf(nodes) {
    return nodes.reduce(function (fragment, node) { fragment.appendChild(node); return fragment; }, document.createDocumentFragment());
  }

  /** A state: an emoji, a title, lines of text and an optional action (a button). */
  function state(emoji, title, lines, action) {
    return el("div", { className: "state" },
      emoji ? el("p", { className: "state-emoji", "aria-hidden": "true", text: emoji }) : null,
      el("p", { className: "state-title", text: title }),
      fragmentOf(lines.filter(Boolean).map(function (line) { return el("p", { text: line }); })),
      action || null);
  }

  function loading(word) {
    return el("div", { className: "state" },
      el("span", { className: "spinner", "aria-hidden": "true" }),
      el("p", { className: "state-title", text: say("looking_up", "Looking up “{word}”…", { word: word }) }));
  }

  function notFound(title, lines) { return state("😕", title, lines); }

  function error(message, retry) {
    return state("⚠️", say("dictionary_unreachable", "Couldn’t reach the dictionary"), [message],
      el("button", { type: "button", onclick: retry }, say("try_again", "Try again")));
  }

  function glossaryTerm(term) {
    return el("article", { className: "result" },
      el("header", { className: "result-header" },
        el("div", null,
          el("h2", { className: "result-word", text: term.word }),
          term.phonetic ? el("p", { className: "phonetic", text: term.phonetic }) : null)),
      el("p", { className: "result-origin", text: term.source === "glossary" ? say("from_glossary", "From this glossary") : say("from_glossary_dictionary", "From this glossary’s dictionary entries") }),
      el("section", { className: "meaning" },
        el("h3", { className: "meaning-pos" }, el("span", { text: term.part_of_speech || say("definition", "definition") })),
        term.summary ? el("p", { className: "result-summary", text: term.summary }) : null),
      el("p", null, el("a", { href: term.url, text: say("read_full_entry", "Read the full entry for “{word}” →", { word: term.word }) })));
  }

  /** Distinct non-blank strings of a list from the API (anything else in it is dropped). */
  function strings(list) {
    var seen = {};
    return (Array.isArray(list) ? list : []).filter(function (item) {
      if (typeof item !== "string" || !item.trim() || seen[item]) return false;
      seen[item] = true;
      return true;
    });
  }

  /** A synonym or antonym: a link to its term page when the glossary has it, else a button searching for it. */
  function wordLink(word, terms, search) {
    var key = Glossary.foldWord(word);
    var term = terms && Object.prototype.hasOwnProperty.call(terms.byKey, key) ? terms.byKey[key] : null;
    if (term) return el("a", { href: term.url, text: word });
    return el("button", { type: "button", className: "nym-button", onclick: function () { search(word); } }, word);
  }

  function nymList(label, words, terms, search) {
    if (!words.length) return null;
    return el("div", { className: "nyms" },
      el("h4", { className: "nyms-label", text: label }),
      el("ul", { className: "nym-list" }, fragmentOf(words.map(function (word) { return el("li", null, wordLink(word, terms, search)); }))));
  }

  function playIcon() {
    var ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    var path = document.createElementNS(ns, "path");
    path.setAttribute("fill", "currentColor");
    path.setAttribute("d", "M7 4.5v15l12.5-7.5z");
    svg.appendChild(path);
    return svg;
  }

  /** One play button per distinct recording (audio.js plays them), labelled by accent when the file name tells. */
  function audioList(phonetics, headword) {
    var seen = {};
    var recordings = phonetics.filter(function (p) {
      var url = p && typeof p.audio === "string" ? safeURL(p.audio) : null;
      if (!url || seen[url]) return false;
      seen[url] = true;
      return true;
    });
    if (!recordings.length) return null;
    var list = el("div", { className: "audio-list" });
    recordings.forEach(function (p) {
      var accent = (/-(us|uk|au|ca)\.[a-z0-9]+$/i.exec(p.audio) || [])[1];
      var english = { us: "US", uk: "UK", au: "Australia", ca: "Canada" };
      var label = say("play", "Play") + (accent ? " (" + say("accent_" + accent.toLowerCase(), english[accent.toLowerCase()]) + ")" : "");
      list.appendChild(el("div", { className: "audio-item" },
        el("button", { type: "button", className: "play-button", "data-audio": safeURL(p.audio) },
          playIcon(), el("span", { className: "play-label" }, label, el("span", { className: "visually-hidden", text: " " + say("pronunciation_of", "pronunciation of “{word}”", { word: headword }) }))),
        el("span", { className: "audio-status", "data-audio-status": true, role: "status" })));
    });
    return list;
  }

  /** Meanings grouped by part of speech across entries, as on term pages. */
  function meaningGroups(entries) {
    var groups = [], byPart = {};
    entries.forEach(function (entry) {
      (Array.isArray(entry.meanings) ? entry.meanings : []).forEach(function (meaning) {
        if (!meaning || typeof meaning !== "object") return;
        var part = typeof meaning.partOfSpeech === "string" && meaning.partOfSpeech ? meaning.partOfSpeech : "definition";
        var group = byPart[part];
        if (!group) { group = byPart[part] = { part: part, definitions: [], synonyms: [], antonyms: [] }; groups.push(group); }
        (Array.isArray(meaning.definitions) ? meaning.definitions : []).forEach(function (d) {
          if (d && typeof d.definition === "string") group.definitions.push(d);
        });
        group.synonyms = strings(group.synonyms.concat(meaning.synonyms || []));
        group.antonyms = strings(group.antonyms.concat(meaning.antonyms || []));
      });
    });
    return groups;
  }

  function meaning(group, terms, search) {
    var list = el("ol", { className: "definitions" });
    group.definitions.forEach(function (d) {
      list.appendChild(el("li", null,
        el("p", { className: "definition", text: d.definition }),
        typeof d.example === "string" && d.example ? el("p", { className: "example", text: say("quote_open", "“") + d.example + say("quote_close", "”") }) : null));
    });
    return el("section", { className: "meaning" },
      el("h3", { className: "meaning-pos" }, el("span", { text: group.part })),
      el("p", { className: "meaning-label", text: say("meaning", "Meaning") }),
      list,
      nymList(say("synonyms", "Synonyms"), group.synonyms, terms, search),
      nymList(say("antonyms", "Antonyms"), group.antonyms, terms, search));
  }

  /** The entries' source pages and licences, or null when they name none. */
  function sourceFooter(entries) {
    var sources = [], licences = [], licenceSeen = {};
    entries.forEach(function (entry) {
      strings(entry.sourceUrls).forEach(function (url) { if (safeURL(url) && sources.indexOf(url) < 0) sources.push(url); });
      var licence = entry.license;
      if (licence && typeof licence.name === "string" && !licenceSeen[licence.name]) {
        licenceSeen[licence.name] = true;
        licences.push(licence);
      }
    });
    var footer = el("footer", { className: "result-source" });
    if (sources.length) {
      footer.appendChild(el("p", null, say("source_label", "Source:") + " "));
      var sourceList = el("ul", { className: "source-list" });
      sources.forEach(function (url) {
        sourceList.appendChild(el("li", null, el("a", { href: safeURL(url), target: "_blank", rel: "noopener" },
          url, el("span", { className: "visually-hidden", text: " " + say("opens_in_new_tab", "(opens in a new tab)") }))));
      });
      footer.appendChild(sourceList);
    }
    if (licences.length) {
      var line = el("p", null, say("licence_label", "Licence:") + " ");
      licences.forEach(function (licence, index) {
        if (index) line.appendChild(document.createTextNode(", "));
        var href = typeof licence.url === "string" ? safeURL(licence.url) : null;
        line.appendChild(href ? el("a", { href: href, target: "_blank", rel: "noopener", text: licence.name }) : document.createTextNode(licence.name));
      });
      footer.appendChild(line);
    }
    return footer.childNodes.length ? footer : null;
  }

  /** A word's entries from the API: {headword, view}. `search(word)` looks up a synonym outside the glossary. */
  function entries(word, list, terms, search) {
    list = list.filter(function (entry) { return entry && typeof entry === "object"; });
    var first = list[0] || {};
    var headword = typeof first.word === "string" && first.word ? first.word : word;
    var phonetics = [];
    list.forEach(function (entry) { if (Array.isArray(entry.phonetics)) phonetics = phonetics.concat(entry.phonetics); });
    var phonetic = typeof first.phonetic === "string" && first.phonetic ? first.phonetic
      : (phonetics.filter(function (p) { return p && typeof p.text === "string" && p.text; })[0] || {}).text;

    var view = el("article", { className: "result" },
      el("header", { className: "result-header" },
        el("div", null,
          el("h2", { className: "result-word", text: headword }),
          phonetic ? el("p", { className: "phonetic", text: phonetic }) : null),
        audioList(phonetics, headword)),
      el("p", { className: "result-origin", text: say("from_free_dictionary_api", "From the Free Dictionary API") }));
    meaningGroups(list).forEach(function (group) { view.appendChild(meaning(group, terms, search)); });
    var footer = sourceFooter(list);
    if (footer) view.appendChild(footer);
    return { headword: headword, view: view };
  }

  /** The glossary's terms among the synonyms and antonyms of the API's entries, as `entries` takes them:
      a promise of {byKey} (each looked up in the shard of terms/index.json where its key falls). */
  function glossaryTerms(list) {
    var keys = [];
    meaningGroups(list).forEach(function (group) {
      group.synonyms.concat(group.antonyms).forEach(function (word) {
        var key = Glossary.foldWord(word);
        if (key && keys.indexOf(key) < 0) keys.push(key);
      });
    });
    return Promise.all(keys.map(Glossary.lookupTerm)).then(function (terms) {
      var byKey = Object.create(null);
      keys.forEach(function (key, i) { if (terms[i]) byKey[key] = terms[i]; });
      return { byKey: byKey };
    });
  }

  Glossary.dictionaryViews = {
    loading: loading, notFound: notFound, error: error, glossaryTerm: glossaryTerm, entries: entries, glossaryTerms: glossaryTerms,
  };
})(window.Glossary);
