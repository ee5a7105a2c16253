/* The site search's engine, for the box search.js makes: the index of the page's language, and lunr.

   The engine is lunr 2.3.9 (assets/vendor/lunr.min.js, from Debian's libjs-lunr), fetched with the index on
   first use. The build writes lunr's inverted index in pieces (Sources/GlossaryKit/Search/SearchIndex.swift):
   search/index.json holds the vocabulary, each term's document count and every document's field lengths; a
   query fetches only the shards holding its terms' postings, makes a lunr.Index of them with the weights
   lunr.Builder would give (BM25, k1 = 1.2, b = 0.75, fields boosted, rounded to 3 places), and lets lunr parse,
   expand (prefixes, typos), match and score. So a query downloads what it needs, not the site.

   Typed words must all match (each also as a prefix: "kern" finds "kerning"); lunr's own syntax works too:
   title:word, +word, -word, word~1, wor*d. Accents are folded away from queries as the build folds them from
   the pages (`fold`), so "cafe" finds "café". */
(function (Glossary) {
  "use strict";

  var el = Glossary.el;
  var root = document.body.getAttribute("data-root") || "/";
  // lunr.Builder's defaults.
  var K1 = 1.2, B = 0.75;

  /** `text` without accents, as the build folds the pages' text (SearchTokenizer.folded): decomposed, its
      nonspacing marks dropped, composed again. "Crème" becomes "Creme"; "ß" stays. */
  function fold(text) {
    return text.normalize("NFD").replace(/\p{Mn}/gu, "").normalize("NFC");
  }

  /* Loading: lunr, then the manifest; each once. */
  var engines = {};
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
  /** The engine of the index at `indexURL` (a language's `search/index.json`), made once. */
  function load(indexURL) {
    if (!engines[indexURL]) {
      engines[indexURL] = (window.lunr ? Promise.resolve() : loadScript(root + "assets/vendor/lunr.min.js"))
        .then(function () { return fetchJSON(indexURL); })
        .then(function (manifest) { return new Engine(manifest, indexURL.replace(/[^\/]*$/, "")); })
        .catch(function (error) { delete engines[indexURL]; throw error; });
    }
    return engines[indexURL];
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

  /** An index's engine; its shards and documents are in `folder`. */
  function Engine(manifest, folder) {
    var self = this;
    this.folder = folder;
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
      this.shards[number] = fetchJSON(this.folder + "shards/" + number + ".json").catch(function (error) {
        delete self.shards[number];
        throw error;
      });
    }
    return this.shards[number];
  };

  Engine.prototype.documents = function (number) {
    var self = this;
    if (!this.chunks[number]) {
      this.chunks[number] = fetchJSON(this.folder + "docs/" + number + ".json").catch(function (error) {
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
    text = fold(text);
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

  Glossary.searchEngine = { load: load, fold: fold };
})(window.Glossary);
