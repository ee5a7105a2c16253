/* The dictionary page (form[data-dictionary-search]): instant results from the glossary as the reader
   types, then on Enter the glossary's own term or, with live lookup on, the dictionary API's answer, in
   the states idle, loading, found, not found and error. The word goes in the address (?q=word), so a
   search can be linked to and Back and Forward walk through the searches. */
(function (Glossary) {
  "use strict";

  var form = document.querySelector("form[data-dictionary-search]");
  if (!form) return;

  var el = Glossary.el;
  var say = Glossary.say;
  var views = Glossary.dictionaryViews;
  var input = form.querySelector("input[name=q]");
  var errorText = form.querySelector("[data-search-error]");
  var instant = form.querySelector("[data-instant-results]");
  var instantList = instant.querySelector("ul");
  var results = document.querySelector("[data-dictionary-results]");
  var idleState = results.firstElementChild ? results.firstElementChild.cloneNode(true) : null;
  var apiTemplate = form.getAttribute("data-api") || "";
  var language = form.getAttribute("data-language") || "en";
  var liveLookup = form.getAttribute("data-live-lookup") === "true" && apiTemplate.indexOf("{word}") >= 0;
  var baseTitle = document.title;
  var lookupNumber = 0;   // the latest lookup; answers to earlier ones are dropped
  var inFlight = null;    // the AbortController of the API request under way

  function queryFromURL() {
    return (new URLSearchParams(window.location.search).get("q") || "").trim();
  }

  function setResults(state, content) {
    results.setAttribute("data-state", state);
    results.removeAttribute("data-source");
    results.replaceChildren.apply(results, content ? [content] : []);
  }

  function showIdle() {
    document.title = baseTitle;
    setResults("idle", idleState ? idleState.cloneNode(true) : null);
  }

  function showEmptyError() {
    errorText.textContent = say("empty_query", "Whoops, can’t be empty…");
    input.setAttribute("aria-invalid", "true");
    input.focus();
  }
  function clearError() {
    errorText.textContent = "";
    input.removeAttribute("aria-invalid");
  }

  function hideInstant() {
    instant.hidden = true;
    instantList.replaceChildren();
  }
  function updateInstant() {
    var text = input.value;
    if (!text.trim()) { hideInstant(); return; }
    var query = Glossary.foldWord(text);
    if (!query) { hideInstant(); return; }
    // Glossary terms matching what is typed, by their keys (as the build folded them).
    Glossary.findTerms(query, 6).then(function (found) {
      if (!found || input.value !== text) return;
      if (!found.length) { hideInstant(); return; }
      instantList.replaceChildren.apply(instantList, found.map(function (term) {
        return el("li", null, el("a", { href: term.url },
          el("span", { className: "instant-word", text: term.word }),
          term.part_of_speech ? el("span", { className: "pos", text: " " + term.part_of_speech }) : null,
          term.summary ? el("span", { className: "instant-summary", text: term.summary }) : null));
      }));
      instant.hidden = false;
    });
  }

  /** Not found, in the page's words; the API's own explanation (in English) only on an English page. */
  function showNotFound(word, body) {
    var english = /^en\b/.test(language);
    var text = function (key) { return english && body && typeof body[key] === "string" ? body[key] : null; };
    var message = text("message") || (liveLookup ? say("not_in_glossary_or_dictionary", "“{word}” is not in this glossary or the dictionary.", { word: word })
      : say("not_in_glossary", "“{word}” is not in this glossary.", { word: word }));
    setResults("not-found", views.notFound(text("title") || say("no_definitions_found", "No Definitions Found"), [message, text("resolution")]));
    results.setAttribute("data-source", body ? "dictionary" : "glossary");
  }

  function showError(word, message) {
    setResults("error", views.error(message, function () {
      // The button goes with its state: focus waits on the results, then goes to the next "Try again" if there is one.
      results.setAttribute("tabindex", "-1");
      results.focus();
      lookup(word).then(function () { var again = results.querySelector(".state button"); if (again) again.focus(); });
    }));
  }

  function showGlossaryTerm(term) {
    document.title = term.word + " · " + baseTitle;
    setResults("found", views.glossaryTerm(term));
    results.setAttribute("data-source", "glossary");
  }

  function showEntries(word, entries, terms) {
    var answer = views.entries(word, entries, terms, search);
    document.title = answer.headword + " · " + baseTitle;
    setResults("found", answer.view);
    results.setAttribute("data-source", "dictionary");
  }

  function apiURL(word) {
    return apiTemplate.split("{lang}").join(encodeURIComponent(language)).split("{word}").join(encodeURIComponent(word));
  }

  /** Shows `word`: the glossary's own term when it has one, else (with live lookup) the API's answer. */
  function lookup(word) {
    var number = ++lookupNumber;
    if (inFlight) inFlight.abort();
    inFlight = null;
    hideInstant();
    return Glossary.lookupTerm(Glossary.foldWord(word)).then(function (term) {
      if (number !== lookupNumber) return;
      if (term) { showGlossaryTerm(term); return; }
      document.title = word + " · " + baseTitle;
      if (!liveLookup) { showNotFound(word, null); return; }
      return askTheAPI(word, number);
    });
  }

  /** The loading state, then the API's answer for `word` (unless lookup `number` is no longer the latest). */
  function askTheAPI(word, number) {
    setResults("loading", views.loading(word));
    var controller = window.AbortController ? new AbortController() : null;
    inFlight = controller;
    var timedOut = false;
    var timer = setTimeout(function () { timedOut = true; if (controller) controller.abort(); }, 15000);
    return fetch(apiURL(word), {
      headers: { Accept: "application/json" }, credentials: "omit", referrerPolicy: "no-referrer",
      signal: controller ? controller.signal : undefined
    }).then(function (response) {
      return response.text().then(function (text) {
        var body = null;
        try { body = JSON.parse(text); } catch (e) { body = null; }
        return { status: response.status, body: body };
      });
    }).then(function (answer) {
      clearTimeout(timer);
      if (number !== lookupNumber) return;
      inFlight = null;
      if (answer.status === 404) showNotFound(word, answer.body && typeof answer.body === "object" ? answer.body : {});
      else if (answer.status === 429) showError(word, say("too_many_requests", "The dictionary is receiving too many requests. Wait a minute, then try again."));
      else if (answer.status < 200 || answer.status >= 300) showError(word, say("dictionary_error", "The dictionary answered with an error (HTTP {status}). Try again later.", { status: answer.status }));
      else if (!Array.isArray(answer.body) || !answer.body.length) showNotFound(word, null);
      else return views.glossaryTerms(answer.body).then(function (terms) { if (number === lookupNumber) showEntries(word, answer.body, terms); });
    }, function (error) {
      clearTimeout(timer);
      if (number !== lookupNumber) return;
      inFlight = null;
      if (error && error.name === "AbortError" && !timedOut) return;
      showError(word, timedOut ? say("dictionary_timeout", "The dictionary took too long to answer. Check your connection and try again.")
        : say("network_failed", "The network request failed. Check your connection and try again."));
    });
  }

  /** Searches for `word` and records it in the address (?q=word) so it can be linked and Back works. */
  function search(word) {
    input.value = word;
    clearError();
    var url = new URL(window.location.href);
    url.searchParams.set("q", word);
    url.hash = "";
    if (queryFromURL() === word) window.history.replaceState({ q: word }, "", url.href);
    else window.history.pushState({ q: word }, "", url.href);
    window.scrollTo(0, 0);
    return lookup(word);
  }

  function clearAll() {
    lookupNumber++;
    if (inFlight) inFlight.abort();
    input.value = "";
    clearError();
    hideInstant();
    showIdle();
    if (queryFromURL()) {
      var url = new URL(window.location.href);
      url.searchParams.delete("q");
      window.history.pushState({ q: "" }, "", url.href);
    }
  }

  function showFromURL() {
    var word = queryFromURL();
    input.value = word;
    clearError();
    hideInstant();
    if (word) lookup(word);
    else { lookupNumber++; showIdle(); }
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var word = input.value.trim();
    if (!word) { showEmptyError(); return; }
    search(word);
  });
  input.addEventListener("input", function () {
    if (input.value.trim()) clearError();
    updateInstant();
  });
  input.addEventListener("focus", function () { Glossary.loadTermIndex().catch(function () {}); });
  form.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      event.preventDefault();
      clearAll();
      input.focus();
    }
  });
  // On phones the keyboard covers half the screen: a tap outside the search field puts it away.
  document.addEventListener("pointerdown", function (event) {
    if (event.pointerType !== "mouse" && document.activeElement === input && !form.contains(event.target)) input.blur();
  });
  window.addEventListener("popstate", showFromURL);
  form.setAttribute("data-ready", "true");
  showFromURL();
})(window.Glossary);
