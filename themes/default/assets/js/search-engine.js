/* The site search's engine, for the box search.js makes: the index of the page's language, and lunr.

   The build writes an inverted index cut by terms (Sources/GlossaryKit/Search/SearchIndex.swift): search/index.json
   holds the fields, their boosts and total lengths, and each shard's first term; search/shards/<file>.json holds a run
   of consecutive terms with their postings; search/docs/N.json what results show. A query fetches the shards its terms
   (and prefixes) fall in, and scores here: BM25 as lunr.Builder weighs (k1 = 1.2, b = 0.75, fields boosted), each
   matched term and field adding its clause's boost times its weight. lunr 2.3.9 (assets/vendor/lunr.min.js, from
   Debian's libjs-lunr), fetched with the manifest on first use, parses the query and expands its terms (prefixes,
   typos, wildcards). So a query downloads what it needs, not the site.

   Typed words must all match (each also as a prefix: "kern" finds "kerning"); lunr's own syntax works too:
   title:word, +word, -word, word~1, wor*d. A prefix reads at most MAX_SHARDS shards from where it begins; a typo
   (word~1) and a leading wildcard match among the terms of the shards loaded for the query. Accents are folded away
   from queries as the build folds them from the pages (`fold`), so "cafe" finds "café", and a term is trimmed to the
   letters and digits of any script (`trim`, where lunr.trimmer keeps ASCII's only), so "Жук" and "日本" are words. */
(function (Glossary) {
  "use strict";

  var el = Glossary.el;
  var root = document.body.getAttribute("data-root") || "/";
  // lunr.Builder's defaults.
  var K1 = 1.2, B = 0.75;
  // The most shards one clause of a query reads, from the one its term or prefix falls in.
  var MAX_SHARDS = 3;

  /** `text` without accents, as the build folds the pages' text (SearchTokenizer.folded): decomposed, its
      nonspacing marks dropped, composed again. "Crème" becomes "Creme"; "ß" stays. */
  function fold(text) {
    return text.normalize("NFD").replace(/\p{Mn}/gu, "").normalize("NFC");
  }

  /** `text` trimmed at both ends to a letter, mark or digit of any script, or "_" (SearchTokenizer.isWordScalar). */
  function trim(text) { return text.replace(/^[^\p{L}\p{M}\p{N}_]+|[^\p{L}\p{M}\p{N}_]+$/gu, ""); }
  /** `trim` as a step of a lunr pipeline. */
  function trimmer(token) { return token.update(trim); }

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
  /** The field length a level stands for: itself below 8, then steps of 25%, each level the middle of its step. */
  function levelLength(level) {
    return level < 8 ? level : 8 * Math.pow(1.25, level - 8 + 0.5);
  }
  /** A term's postings in a field: [[document, term frequency, field length], ...], documents ascending. Each is
      (gap - 1) * 2 + (1 if the frequency is over 1), then that frequency if so, then the length's level. */
  function decodePostings(text) {
    var numbers = decodeNumbers(text), postings = [], document = -1;
    for (var i = 0; i < numbers.length; i++) {
      var value = numbers[i];
      document += Math.floor(value / 2) + 1;
      var frequency = value % 2 ? numbers[++i] : 1;
      postings.push([document, frequency, levelLength(numbers[++i])]);
    }
    return postings;
  }

  /** An index's engine; its shards and documents are in `folder`. */
  function Engine(manifest, folder) {
    this.folder = folder;
    this.fields = manifest.fields;
    this.boosts = manifest.boosts;
    this.count = manifest.documents;
    this.chunk = manifest.chunk;
    var count = this.count;
    this.average = manifest.lengths.map(function (total) { return count > 0 ? total / count : 0; });
    // Each shard's first term, in the order JavaScript sorts strings, and its file.
    this.firsts = manifest.shards.map(function (shard) { return shard[0]; });
    this.files = manifest.shards.map(function (shard) { return shard[1]; });
    this.pipeline = new lunr.Pipeline();
    if (!trimmer.label) lunr.Pipeline.registerFunction(trimmer, "glossaryTrimmer"); // else lunr warns on the console
    this.pipeline.add(trimmer, lunr.stopWordFilter);
    this.shards = {};
    this.chunks = {};
  }

  /** The shard holding `term` if the index has it: the last whose first term sorts before or as it. */
  Engine.prototype.shardOf = function (term) {
    var low = 0, high = this.firsts.length - 1;
    while (low < high) {
      var middle = (low + high + 1) >> 1;
      if (this.firsts[middle] <= term) low = middle; else high = middle - 1;
    }
    return low;
  };

  /** The shards a clause reads: its term's; for a prefix, the next ones beginning with it too, at most MAX_SHARDS.
      A term that begins with a wildcard reads none (it matches in the others' shards). */
  Engine.prototype.shardsOf = function (clause) {
    var star = clause.term.indexOf("*"), prefix = star < 0 ? clause.term : clause.term.slice(0, star);
    if (!prefix || !this.firsts.length) return [];
    var first = this.shardOf(prefix), numbers = [first];
    if (star >= 0 || clause.wildcard & lunr.Query.wildcard.TRAILING) {
      for (var n = first + 1; n < this.firsts.length && numbers.length < MAX_SHARDS && this.firsts[n].lastIndexOf(prefix, 0) === 0; n++) numbers.push(n);
    }
    return numbers;
  };

  /** The JSON at `url`, fetched once into `cache` under `key` and made by `make`; forgotten if it fails, so that a
      later search tries again. */
  function fetchOnce(cache, key, url, make) {
    if (!cache[key]) {
      cache[key] = fetchJSON(url).then(make).catch(function (error) {
        delete cache[key];
        throw error;
      });
    }
    return cache[key];
  }

  /** Shard `number`: {terms: its terms, sorted; postings: a Map of each term to its postings per field, encoded}. */
  Engine.prototype.shard = function (number) {
    return fetchOnce(this.shards, number, this.folder + "shards/" + this.files[number] + ".json", function (shard) {
      var postings = new Map();
      shard.terms.forEach(function (entry) { postings.set(entry[0], entry.slice(1)); });
      return { terms: shard.terms.map(function (entry) { return entry[0]; }), postings: postings };
    });
  };

  Engine.prototype.documents = function (number) {
    return fetchOnce(this.chunks, number, this.folder + "docs/" + number + ".json", function (chunk) { return chunk; });
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

  /** The results of `text`: [{ref, score, matchData}], best first (see `score`), from the shards its clauses read. */
  Engine.prototype.search = function (text) {
    var self = this, clauses = this.clauses(text), wanted = {};
    if (!clauses.some(function (c) { return c.presence !== lunr.Query.presence.PROHIBITED; })) return Promise.resolve([]);
    clauses.forEach(function (clause) { self.shardsOf(clause).forEach(function (n) { wanted[n] = true; }); });
    var numbers = Object.keys(wanted).map(Number).sort(function (a, b) { return a - b; });
    return Promise.all(numbers.map(function (n) { return self.shard(n); })).then(function (shards) {
      return self.score(clauses, new Loaded(shards));
    });
  };

  /** The terms of some shards (in order) and their postings, decoded when first asked for. */
  function Loaded(shards) {
    this.shards = shards;
    // The shards follow one another in the vocabulary's order, as lunr.TokenSet.fromArray needs.
    this.vocabulary = lunr.TokenSet.fromArray([].concat.apply([], shards.map(function (shard) { return shard.terms; })));
    this.decoded = new Map();
  }
  /** A term's postings per field and its document frequency (postings over all fields, as lunr counts). */
  Loaded.prototype.postings = function (term) {
    if (!this.decoded.has(term)) {
      var encoded = this.shards.filter(function (shard) { return shard.postings.has(term); })[0].postings.get(term);
      var fields = encoded.map(decodePostings);
      this.decoded.set(term, { fields: fields, frequency: fields.reduce(function (sum, p) { return sum + p.length; }, 0) });
    }
    return this.decoded.get(term);
  };
  /** The loaded terms a clause matches, most frequent first if more than 256 (a short prefix stays cheap). */
  Loaded.prototype.expand = function (clause, fields) {
    var self = this, scratch = new lunr.Query(fields);
    scratch.clause(Object.assign({}, clause));
    var terms = this.vocabulary.intersect(lunr.TokenSet.fromClause(scratch.clauses[0])).toArray();
    if (terms.length <= 256) return terms;
    return terms.sort(function (a, b) { return self.postings(b).frequency - self.postings(a).frequency || (a < b ? -1 : 1); }).slice(0, 256);
  };

  /** lunr.Builder's weight of a term in a field: BM25 of its frequency and the field's length, boosted. */
  Engine.prototype.weight = function (documentFrequency, field, frequency, length) {
    var idf = Math.log(1 + Math.abs((this.count - documentFrequency + 0.5) / (documentFrequency + 0.5)));
    var average = this.average[field], relative = average > 0 ? length / average : 0;
    return idf * ((K1 + 1) * frequency) / (K1 * (1 - B + B * relative) + frequency) * this.boosts[field];
  };

  /** The documents the clauses match among the loaded terms, as lunr.Index#query matches them: each required clause
      (some term it expands to, in one of its fields) and no prohibited one; scored by the sum, over the terms and
      fields the required and optional clauses matched, of the clause's boost times the weight; best first, then by ref. Their
      matchData.metadata names those terms and fields ({term: {field: {}}}), for marking the words in results. */
  Engine.prototype.score = function (clauses, loaded) {
    var self = this, scores = new Map(), metadata = new Map(), required = null, prohibited = new Set();
    clauses.forEach(function (clause) {
      var matched = new Set(), presence = clause.presence;
      loaded.expand(clause, self.fields).forEach(function (term) {
        var postings = loaded.postings(term);
        clause.fields.forEach(function (name) {
          var field = self.fields.indexOf(name);
          postings.fields[field].forEach(function (posting) {
            var document = posting[0];
            matched.add(document);
            if (presence === lunr.Query.presence.PROHIBITED) return;
            var weight = self.weight(postings.frequency, field, posting[1], posting[2]);
            scores.set(document, (scores.get(document) || 0) + clause.boost * weight);
            if (!metadata.has(document)) metadata.set(document, {});
            var terms = metadata.get(document);
            (terms[term] || (terms[term] = {}))[name] = {};
          });
        });
      });
      if (presence === lunr.Query.presence.REQUIRED) {
        required = required ? new Set(Array.from(required).filter(function (d) { return matched.has(d); })) : matched;
      } else if (presence === lunr.Query.presence.PROHIBITED) {
        matched.forEach(function (d) { prohibited.add(d); });
      }
    });
    var results = [];
    scores.forEach(function (score, document) {
      if ((required && !required.has(document)) || prohibited.has(document)) return;
      results.push({ ref: String(document), score: score, matchData: { metadata: metadata.get(document) } });
    });
    return results.sort(function (a, b) { return b.score - a.score || Number(a.ref) - Number(b.ref); });
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

  Glossary.searchEngine = { load: load, fold: fold, trim: trim, trimmer: trimmer };
})(window.Glossary);
