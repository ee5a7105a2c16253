/* The site search: one box in the header (press / to get there) finding pages by title, headings and text,
   and terms by word, alias and definition, in the page's language (data-index names its index). Results show as
   a list under the box, their matching words marked; Up and Down move through them, Enter opens one, Escape
   closes the list. The engine is in search-engine.js.

   Typed words must all match (each also as a prefix: "kern" finds "kerning"); lunr's own syntax works too:
   title:word, +word, -word, word~1, wor*d. Without JavaScript the box is hidden; the pages are complete. */
(function (Glossary) {
  "use strict";

  var box = document.querySelector("[data-site-search]");
  if (!box) return;

  var el = Glossary.el;
  var say = Glossary.say;
  var fold = Glossary.searchEngine.fold, trim = Glossary.searchEngine.trim;
  var root = document.body.getAttribute("data-root") || "/";
  var indexURL = box.getAttribute("data-index") || root + "search/index.json";
  var LIMIT = 10;
  function loadEngine() { return Glossary.searchEngine.load(indexURL); }

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

  /* Showing results. */

  /** `text` with the words whose term is in `terms` marked, as nodes. */
  function marked(text, terms) {
    var fragment = document.createDocumentFragment();
    text.split(/([\s\-]+)/).forEach(function (piece) {
      var lowered = fold(piece.toLowerCase()), word = trim(lowered);
      if (!word || !terms[word]) { fragment.appendChild(document.createTextNode(piece)); return; }
      // Folded the same length (composed accents), the word stands where it does in the piece; else mark it whole.
      if (lowered.length !== piece.length) { fragment.appendChild(el("mark", null, piece)); return; }
      var start = lowered.indexOf(word);
      fragment.appendChild(document.createTextNode(piece.slice(0, start)));
      fragment.appendChild(el("mark", null, piece.slice(start, start + word.length)));
      fragment.appendChild(document.createTextNode(piece.slice(start + word.length)));
    });
    return fragment;
  }

  function termsOf(text) {
    return text.split(lunr.tokenizer.separator).map(function (word) {
      return trim(fold(word.toLowerCase()));
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
        el("span", { className: "site-search-trail" }, info.kind === 1 ? say("glossary_term", "Glossary term") : (info.trail || say("home", "Home"))),
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
