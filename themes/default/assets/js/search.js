/* The site search: one box in the header (press / to get there) finding pages by title, headings and text,
   and terms by word, alias and definition. Results show as a list under the box, their matching words marked;
   Up and Down move through them, Enter opens one, Escape closes the list.

   The engine is lunr 2.3.9 (assets/vendor/lunr.min.js, from Debian's libjs-lunr), fetched with the index on
   first use. The build writes lunr's inverted index in pieces (Sources/GlossaryKit/Search/SearchIndex.swift):
   search/index.json holds the vocabulary, each term's document count and every document's field lengths; a
   query fetches only the shards holding its terms' postings, makes a lunr.Index of them with the weights
   lunr.Builder would give (BM25, k1 = 1.2, b = 0.75, fields boosted, rounded to 3 places), and lets lunr parse,
   expand (prefixes, typos), match and score. So a query downloads what it needs, not the site.

   Typed words must all match (each also as a prefix: "kern" finds "kerning"); lunr's own syntax works too:
   title:word, +word, -word, word~1, wor*d. Without JavaScript the box is hidden; the pages are complete. */
(function (Glossary) {
  "use strict";

  var box = document.querySelector("[data-site-search]");
  if (!box) return;

  var el = Glossary.el;
  // The page's words for the box (data-strings, from the theme's i18n/<lang>.yml); English without them.
  var words = {};
  try { words = JSON.parse(box.getAttribute("data-strings") || "{}"); } catch (error) { words = {}; }
  function say(name, english, values) {
    var text = typeof words[name] === "string" ? words[name] : english;
    return text.replace(/\{(\w+)\}/g, function (all, key) { return values && key in values ? String(values[key]) : all; });
  }
  var root = document.body.getAttribute("data-root") || "/";
  var indexURL = root + "search/index.json";
  var folder = indexURL.replace(/[^\/]*$/, "");
  var LIMIT = 10;
  // lunr.Builder's defaults.
  var K1 = 1.2, B = 0.75;

  // Ids no heading can take (heading ids are letters, digits, "-" and "_").
  var listId = "site-search:results";
  // type=text, as the combobox pattern has it: axe counts autocomplete=off (no browser suggestions over ours)
  // inappropriate on a search field.
  var input = el("input", {
    type: "text", inputmode: "search", className: "site-search-input", placeholder: say("search", "Search"), "aria-label": say("search_site", "Search the site"),
    role: "combobox", "aria-expanded": "false", "aria-controls": listId, "aria-autocomplete": "list",
    autocomplete: "off", spellcheck: "false", autocapitalize: "none", enterkeyhint: "go"
  });
  var key = el("kbd", { className: "site-search-key", "aria-hidden": "true" }, "/");
  var list = el("ul", { id: listId, className: "site-search-results", role: "listbox", "aria-label": say("search_results", "Search results") });
  var status = el("p", { className: "site-search-status", role: "status" });
  var panel = el("div", { className: "site-search-panel", hidden: true }, status, list);
  var form = el("form", { className: "site-search-form", role: "search" }, input, key, panel);
  box.appendChild(form);

  var state = { options: [], active: -1, query: "", number: 0 };

  /** The search without its box: results of `text` as lunr gives them ([{ref, score, matchData}]), and what
      results show of documents by ref. For other scripts of a theme, and for the tests. */
  Glossary.siteSearch = {
    search: function (text) { return loadEngine().then(function (engine) { return engine.search(text); }); },
    clauses: function (text) { return loadEngine().then(function (engine) { return engine.clauses(text); }); },
    describe: function (refs) { return loadEngine().then(function (engine) { return engine.describe(refs); }); }
  };

  /* Loading: lunr, then the manifest; each once. */
  var engine = null;
  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var script = el("script", { src: src });
      script.addEventListener("load", resolve);
      script.addEventListener("error", function () { reject(new Error("can't load " + src)); });
      document.head.appendChild(script);
    });
  }
  function fetchJSON(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status + " for " + url);
      return response.json();
    });
  }
  function loadEngine() {
    if (!engine) {
      engine = (window.lunr ? Promise.resolve() : loadScript(root + "assets/vendor/lunr.min.js"))
        .then(function () { return fetchJSON(indexURL); })
        .then(function (manifest) { return new Engine(manifest); })
        .catch(function (error) { engine = null; throw error; });
    }
    return engine;
  }

  /* Numbers in the index: base-64 digits of 5 bits, least significant first, the 6th bit meaning "more". */
  var DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  var DIGIT_VALUE = {};
  for (var d = 0; d < DIGITS.length; d++) DIGIT_VALUE[DIGITS.charAt(d)] = d;
  function decodeNumbers(text) {
    var numbers = [], value = 0, shift = 0;
    for (var i = 0; i < text.length; i++) {
      var digit = DIGIT_VALUE[text.charAt(i)];
      value += (digit & 31) * Math.pow(2, shift);
      if (digit & 32) { shift += 5; continue; }
      numbers.push(value);
      value = 0;
      shift = 0;
    }
    return numbers;
  }
  /** A field's postings: [[document, term frequency], ...]. */
  function decodePostings(text) {
    var numbers = decodeNumbers(text), postings = [], document = -1;
    for (var i = 0; i < numbers.length; i++) {
      var value = numbers[i];
      document += Math.floor(value / 2) + 1;
      var frequency = value % 2 ? numbers[++i] : 1;
      postings.push([document, frequency]);
    }
    return postings;
  }

  function Engine(manifest) {
    var self = this;
    this.fields = manifest.fields;
    this.boosts = manifest.boosts;
    this.count = manifest.documents;
    this.chunk = manifest.chunk;
    this.average = manifest.average;
    this.lengths = manifest.lengths.map(decodeNumbers);
    this.starts = manifest.shards;
    this.terms = manifest.terms;
    this.frequencies = decodeNumbers(manifest.df);
    this.position = new Map();
    this.terms.forEach(function (term, position) { self.position.set(term, position); });
    // The build sorted the terms as JavaScript sorts strings, as lunr.TokenSet.fromArray needs.
    this.vocabulary = lunr.TokenSet.fromArray(this.terms);
    this.pipeline = new lunr.Pipeline();
    this.pipeline.add(lunr.trimmer, lunr.stopWordFilter);
    this.shards = {};
    this.chunks = {};
  }

  Engine.prototype.shardOf = function (term) {
    var position = this.position.get(term), low = 0, high = this.starts.length - 1;
    while (low < high) {
      var middle = (low + high + 1) >> 1;
      if (this.starts[middle] <= position) low = middle; else high = middle - 1;
    }
    return low;
  };

  Engine.prototype.shard = function (number) {
    var self = this;
    if (!this.shards[number]) {
      this.shards[number] = fetchJSON(folder + "shards/" + number + ".json").catch(function (error) {
        delete self.shards[number];
        throw error;
      });
    }
    return this.shards[number];
  };

  Engine.prototype.documents = function (number) {
    var self = this;
    if (!this.chunks[number]) {
      this.chunks[number] = fetchJSON(folder + "docs/" + number + ".json").catch(function (error) {
        delete self.chunks[number];
        throw error;
      });
    }
    return this.chunks[number];
  };

  /** The query's clauses: what lunr's parser makes of the text, with plain words made required prefixes
      (plus an optional exact match that ranks whole words first), and stop words dropped. */
  Engine.prototype.clauses = function (text) {
    var self = this, query = new lunr.Query(this.fields);
    try {
      new lunr.QueryParser(text, query).parse();
    } catch (error) {
      // Not lunr syntax after all (a stray ":" or "~"): its words, plainly.
      query = new lunr.Query(this.fields);
      text.split(lunr.tokenizer.separator).forEach(function (word) {
        var plain = word.replace(/[:~^*+\\]/g, "");
        if (plain) query.clause({ term: plain.toLowerCase() });
      });
    }
    var clauses = [];
    query.clauses.forEach(function (clause) {
      var term = clause.term;
      if (clause.usePipeline) {
        var processed = self.pipeline.runString(term);
        if (!processed.length || !processed[0]) return;
        term = processed[0];
      }
      if (!term || term === "*") return;
      var plain = clause.usePipeline && !("editDistance" in clause) && clause.presence === lunr.Query.presence.OPTIONAL;
      if (plain) {
        clauses.push({ term: term, fields: clause.fields, boost: clause.boost, usePipeline: false, presence: lunr.Query.presence.REQUIRED,
                       wildcard: term.length > 1 ? lunr.Query.wildcard.TRAILING : lunr.Query.wildcard.NONE });
        clauses.push({ term: term, fields: clause.fields, boost: clause.boost * 10, usePipeline: false, presence: lunr.Query.presence.OPTIONAL });
      } else {
        var copy = { term: term, fields: clause.fields, boost: clause.boost, usePipeline: false, presence: clause.presence, wildcard: clause.wildcard };
        if ("editDistance" in clause) copy.editDistance = clause.editDistance;
        clauses.push(copy);
      }
    });
    return clauses;
  };

  /** Terms of the vocabulary a clause matches, most frequent first, at most 256 (a short prefix stays cheap). */
  Engine.prototype.expand = function (clause) {
    var scratch = new lunr.Query(this.fields);
    scratch.clause(Object.assign({}, clause));
    var terms = this.vocabulary.intersect(lunr.TokenSet.fromClause(scratch.clauses[0])).toArray();
    if (terms.length > 256) {
      var self = this;
      terms.sort(function (a, b) { return self.frequencies[self.position.get(b)] - self.frequencies[self.position.get(a)]; });
      terms = terms.slice(0, 256);
    }
    return terms;
  };

  /** lunr.Builder's weight of a term in a document's field. */
  Engine.prototype.weight = function (documentFrequency, field, document, frequency) {
    var idf = Math.log(1 + Math.abs((this.count - documentFrequency + 0.5) / (documentFrequency + 0.5)));
    var length = this.lengths[field][document], average = this.average[field];
    var score = idf * ((K1 + 1) * frequency) / (K1 * (1 - B + B * (length / average)) + frequency);
    score *= this.boosts[field];
    return Math.round(score * 1000) / 1000;
  };

  /** The results of `text`: [{ref, score, matchData}], best first, as lunr scores them. */
  Engine.prototype.search = function (text) {
    var self = this, clauses = this.clauses(text);
    if (!clauses.some(function (c) { return c.presence !== lunr.Query.presence.PROHIBITED; })) return Promise.resolve([]);
    var wanted = {};
    clauses.forEach(function (clause) { self.expand(clause).forEach(function (term) { wanted[term] = true; }); });
    var terms = Object.keys(wanted).sort();
    var shardNumbers = {};
    terms.forEach(function (term) { shardNumbers[self.shardOf(term)] = true; });
    return Promise.all(Object.keys(shardNumbers).map(function (n) { return self.shard(n); })).then(function () {
      return Promise.all(terms.map(function (term) { return self.shard(self.shardOf(term)); }));
    }).then(function (shards) {
      var invertedIndex = Object.create(null), vectors = Object.create(null);
      terms.forEach(function (term, termIndex) {
        var encoded = shards[termIndex].terms[term], frequency = self.frequencies[self.position.get(term)];
        var posting = { _index: termIndex };
        self.fields.forEach(function (field, f) {
          posting[field] = Object.create(null);
          decodePostings(encoded ? encoded[f] : "").forEach(function (entry) {
            var document = entry[0], ref = field + "/" + document;
            posting[field][document] = {};
            (vectors[ref] || (vectors[ref] = [])).push(termIndex, self.weight(frequency, f, document, entry[1]));
          });
        });
        invertedIndex[term] = posting;
      });
      var fieldVectors = Object.create(null);
      Object.keys(vectors).forEach(function (ref) { fieldVectors[ref] = new lunr.Vector(vectors[ref]); });
      var index = new lunr.Index({
        invertedIndex: invertedIndex, fieldVectors: fieldVectors, tokenSet: lunr.TokenSet.fromArray(terms),
        fields: self.fields, pipeline: new lunr.Pipeline()
      });
      return index.query(function (query) {
        clauses.forEach(function (clause) { query.clause(Object.assign({}, clause)); });
      });
    });
  };

  /** What results show of each document: {kind, title, url, trail, summary, headings}. */
  Engine.prototype.describe = function (refs) {
    var self = this, numbers = {};
    refs.forEach(function (ref) { numbers[Math.floor(ref / self.chunk)] = true; });
    return Promise.all(Object.keys(numbers).map(function (n) { return self.documents(n); })).then(function () {
      return Promise.all(refs.map(function (ref) {
        return self.documents(Math.floor(ref / self.chunk)).then(function (chunk) {
          var entry = chunk[ref % self.chunk];
          return { kind: entry[0], title: entry[1], url: entry[2], trail: entry[3], summary: entry[4], headings: entry[5] };
        });
      }));
    });
  };

  /* Showing results. */

  /** `text` with the words whose term is in `terms` marked, as nodes. */
  function marked(text, terms) {
    var fragment = document.createDocumentFragment();
    text.split(/([\s\-]+)/).forEach(function (piece) {
      var word = piece.toLowerCase().replace(/^\W+/, "").replace(/\W+$/, "");
      if (!word || !terms[word]) { fragment.appendChild(document.createTextNode(piece)); return; }
      var start = piece.toLowerCase().indexOf(word);
      fragment.appendChild(document.createTextNode(piece.slice(0, start)));
      fragment.appendChild(el("mark", null, piece.slice(start, start + word.length)));
      fragment.appendChild(document.createTextNode(piece.slice(start + word.length)));
    });
    return fragment;
  }

  function termsOf(text) {
    return text.split(lunr.tokenizer.separator).map(function (word) {
      return word.toLowerCase().replace(/^\W+/, "").replace(/\W+$/, "");
    });
  }

  function render(results, documents) {
    list.replaceChildren();
    state.options = [];
    state.active = -1;
    results.forEach(function (result, i) {
      var info = documents[i], terms = {};
      Object.keys(result.matchData.metadata).forEach(function (term) { terms[term] = true; });
      var href = root + info.url, heading = null;
      // A match in a heading leads to that heading.
      if (info.headings && Object.keys(result.matchData.metadata).some(function (t) { return result.matchData.metadata[t].headings; })) {
        heading = info.headings.filter(function (h) { return termsOf(h[0]).some(function (t) { return terms[t]; }); })[0] || null;
        if (heading) href += "#" + heading[1];
      }
      var option = el("li", { id: listId + ":" + i, className: "site-search-option", role: "option", "aria-selected": "false", "data-href": href },
        el("span", { className: "site-search-title" }, marked(info.title, terms)),
        el("span", { className: "site-search-trail" }, info.kind === 1 ? "Glossary term" : (info.trail || "Home")),
        heading ? el("span", { className: "site-search-heading" }, marked(heading[0], terms)) : null,
        !heading && info.summary ? el("span", { className: "site-search-summary" }, marked(info.summary, terms)) : null);
      option.addEventListener("mousedown", function (event) { event.preventDefault(); });
      option.addEventListener("click", function () { open(href); });
      list.appendChild(option);
      state.options.push(option);
    });
  }

  function showPanel(visible) {
    panel.hidden = !visible;
    input.setAttribute("aria-expanded", visible && state.options.length ? "true" : "false");
  }

  function setActive(index) {
    if (state.active >= 0 && state.options[state.active]) state.options[state.active].setAttribute("aria-selected", "false");
    state.active = index;
    var option = state.options[index];
    if (option) {
      option.setAttribute("aria-selected", "true");
      input.setAttribute("aria-activedescendant", option.id);
      option.scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function open(href) {
    window.location.assign(href);
  }

  function update() {
    var text = input.value.trim(), number = ++state.number;
    state.query = text;
    if (!text) {
      list.replaceChildren();
      state.options = [];
      setActive(-1);
      status.textContent = "";
      showPanel(false);
      return;
    }
    status.textContent = say("searching", "Searching…");
    showPanel(true);
    loadEngine().then(function (engine) {
      return engine.search(text).then(function (results) {
        var shown = results.slice(0, LIMIT);
        return engine.describe(shown.map(function (r) { return Number(r.ref); })).then(function (documents) {
          return { results: shown, total: results.length, documents: documents };
        });
      });
    }).then(function (found) {
      if (number !== state.number) return;  // a later query is under way
      render(found.results, found.documents);
      setActive(-1);
      status.textContent = found.total === 0 ? say("no_results", "No results for “{query}”", { query: text })
        : found.total > found.results.length ? say("some_results", "{shown} of {total} results", { shown: found.results.length, total: found.total })
        : found.total === 1 ? say("one_result", "1 result") : say("results", "{total} results", { total: found.total });
      showPanel(true);
    }).catch(function () {
      if (number !== state.number) return;
      list.replaceChildren();
      state.options = [];
      status.textContent = say("search_failed", "The search could not be loaded.");
      showPanel(true);
    });
  }

  input.addEventListener("input", update);
  input.addEventListener("focus", function () {
    loadEngine().catch(function () {});
    if (input.value.trim()) showPanel(true);
  });
  input.addEventListener("blur", function () { showPanel(false); });
  input.addEventListener("keydown", function (event) {
    var count = state.options.length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!count) return;
      event.preventDefault();
      showPanel(true);
      var step = event.key === "ArrowDown" ? 1 : -1;
      setActive(state.active < 0 ? (step > 0 ? 0 : count - 1) : (state.active + step + count) % count);
    } else if (event.key === "Enter") {
      event.preventDefault();
      var option = state.options[state.active >= 0 ? state.active : 0];
      if (option && !panel.hidden) open(option.getAttribute("data-href"));
    } else if (event.key === "Escape") {
      if (!panel.hidden && input.value) { event.preventDefault(); showPanel(false); setActive(-1); }
    }
  });
  form.addEventListener("submit", function (event) { event.preventDefault(); });

  // "/" anywhere but in a field goes to the search box.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    event.preventDefault();
    input.focus();
    input.select();
  });
})(window.Glossary);
