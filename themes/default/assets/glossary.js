/* Glossary default theme: theme and font switchers, term cards, audio buttons and the dictionary page.
   Everything here improves pages that are complete without it. Text from outside the site (the
   dictionary API) is only ever inserted with textContent. */
(function () {
  "use strict";

  var root = document.documentElement;
  var THEME_KEY = "glossary-theme";
  var FONT_KEY = "glossary-font";

  // Storage can be blocked (privacy modes, sandboxed frames): then choices last for the page only.
  function readStored(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }
  function writeStored(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* not kept; still applied */ }
  }

  /* Element helper: el("p", {className: "x"}, "text", child, ...). Strings become text nodes. */
  function el(tag, props) {
    var node = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (key) {
        var value = props[key];
        if (value === null || value === undefined || value === false) return;
        if (key === "className") node.className = value;
        else if (key === "text") node.textContent = value;
        else if (key.indexOf("on") === 0) node.addEventListener(key.slice(2), value);
        else node.setAttribute(key, value === true ? "" : value);
      });
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  /* ---------------------------------------------------------------- theme */

  var darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var toggles = Array.prototype.slice.call(document.querySelectorAll("[data-theme-toggle]"));

  function validTheme(value) { return value === "light" || value === "dark" ? value : null; }
  function systemTheme() { return darkQuery && darkQuery.matches ? "dark" : "light"; }
  function currentTheme() { return validTheme(readStored(THEME_KEY)) || systemTheme(); }

  function applyTheme(theme) {
    root.setAttribute("data-theme", theme);
    toggles.forEach(function (toggle) { toggle.setAttribute("aria-checked", theme === "dark" ? "true" : "false"); });
  }

  toggles.forEach(function (toggle) {
    toggle.addEventListener("click", function () {
      var next = root.getAttribute("data-theme") === "dark" ? "light" : "dark";
      applyTheme(next);
      writeStored(THEME_KEY, next);
    });
  });
  // Until the reader chooses, follow the system as it changes (e.g. at sunset).
  if (darkQuery) {
    var followSystem = function () { if (!validTheme(readStored(THEME_KEY))) applyTheme(systemTheme()); };
    if (darkQuery.addEventListener) darkQuery.addEventListener("change", followSystem);
    else if (darkQuery.addListener) darkQuery.addListener(followSystem);
  }
  applyTheme(validTheme(root.getAttribute("data-theme")) || currentTheme());

  /* ----------------------------------------------------------------- font */

  var fontSwitchers = Array.prototype.slice.call(document.querySelectorAll("[data-font-switcher]"));
  function validFont(value) { return value === "sans" || value === "serif" || value === "mono" ? value : null; }
  function applyFont(font) {
    root.setAttribute("data-font", font);
    fontSwitchers.forEach(function (select) { select.value = font; });
  }
  fontSwitchers.forEach(function (select) {
    select.addEventListener("change", function () {
      var font = validFont(select.value) || "sans";
      applyFont(font);
      writeStored(FONT_KEY, font);
    });
  });
  applyFont(validFont(root.getAttribute("data-font")) || "sans");

  // Other open tabs follow a choice made here (and a cleared storage resets to the defaults).
  window.addEventListener("storage", function (event) {
    if (event.key === THEME_KEY || event.key === null) applyTheme(currentTheme());
    if (event.key === FONT_KEY || event.key === null) applyFont(validFont(readStored(FONT_KEY)) || "sans");
  });
  // A page restored from the back/forward cache may predate a choice made on another page.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    applyTheme(currentTheme());
    applyFont(validFont(readStored(FONT_KEY)) || "sans");
  });

  /* ----------------------------------------------------------- terms data */

  var termsRequest = null;

  function foldWord(text) {
    return String(text).normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();
  }

  /** The glossary's terms (terms/index.json), fetched once per page and shared by cards and search. */
  function loadTerms() {
    if (!termsRequest) {
      var url = document.body.getAttribute("data-terms-json");
      termsRequest = fetch(url, { credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.json();
        })
        .then(function (data) {
          var terms = (data && Array.isArray(data.terms)) ? data.terms : [];
          var bySlug = {}, byKey = {};
          terms.forEach(function (term) {
            bySlug[term.slug] = term;
            byKey[foldWord(term.key || term.word)] = term;
            byKey[foldWord(term.word)] = byKey[foldWord(term.word)] || term;
            (term.aliases || []).forEach(function (alias) { byKey[foldWord(alias)] = byKey[foldWord(alias)] || term; });
          });
          return { list: terms, bySlug: bySlug, byKey: byKey };
        })
        .catch(function () {
          termsRequest = null; // let a later interaction try again
          return null;
        });
    }
    return termsRequest;
  }

  /* ----------------------------------------------------------- term cards */

  var card = null;        // the one card element, moved next to the link it describes
  var cardLink = null;    // the link whose card is open
  var openTimer = 0, closeTimer = 0;
  var tapState = { touch: false, wasOpen: false };

  function termLink(node) {
    return node && node.closest ? node.closest("a.term[data-term]") : null;
  }
  function inCard(node) { return !!(card && node && card.contains(node)); }

  function ensureCard() {
    if (card) return card;
    card = el("span", { className: "term-card", id: "term-card", role: "tooltip", "data-term-card": true, hidden: true });
    card.addEventListener("pointerenter", function () { clearTimeout(closeTimer); });
    card.addEventListener("pointerleave", function (event) {
      if (event.pointerType === "mouse" && !cardHasFocus()) scheduleClose();
    });
    return card;
  }
  function cardHasFocus() {
    var active = document.activeElement;
    return !!(active && (active === cardLink || inCard(active)));
  }

  function fillCard(link, term) {
    var word = term ? term.word : link.textContent;
    var href = term ? term.url : link.getAttribute("href");
    var meta = el("span", { className: "term-card-meta" },
      term && term.part_of_speech ? el("span", { className: "pos", text: term.part_of_speech }) : null,
      term && term.part_of_speech && term.phonetic ? " " : null,
      term && term.phonetic ? el("span", { className: "phonetic", text: term.phonetic }) : null);
    card.replaceChildren(
      el("span", { className: "term-card-word", text: word }),
      meta.childNodes.length ? meta : null,
      el("span", { className: "term-card-summary", text: term && term.summary ? term.summary : "Open the term page for its definition." }),
      el("a", { className: "term-card-link", href: href }, "Read the entry for “" + word + "” →"));
  }

  function positionCard() {
    if (!cardLink || card.hidden) return;
    var rects = cardLink.getClientRects();
    var anchor = rects.length ? rects[0] : cardLink.getBoundingClientRect();
    var viewportWidth = document.documentElement.clientWidth;
    var viewportHeight = window.innerHeight;
    if (anchor.bottom < 0 || anchor.top > viewportHeight) { closeCard(); return; }
    var gap = 8, edge = 8;
    var width = card.offsetWidth, height = card.offsetHeight;
    var left = Math.max(edge, Math.min(anchor.left, viewportWidth - width - edge));
    var top = anchor.bottom + gap;
    if (top + height > viewportHeight - edge && anchor.top - gap - height >= edge) top = anchor.top - gap - height;
    card.style.left = Math.round(left) + "px";
    card.style.top = Math.round(top) + "px";
  }

  function openCard(link) {
    clearTimeout(closeTimer);
    clearTimeout(openTimer);
    if (cardLink === link && !card.hidden) return;
    if (cardLink) closeCard();
    ensureCard();
    cardLink = link;
    link.insertAdjacentElement("afterend", card); // right after the link: Tab reaches the card's own link next
    loadTerms().then(function (terms) {
      if (cardLink !== link) return;
      fillCard(link, terms ? terms.bySlug[link.getAttribute("data-term")] : null);
      card.hidden = false;
      link.setAttribute("aria-describedby", card.id);
      positionCard();
    });
  }

  function closeCard() {
    clearTimeout(closeTimer);
    clearTimeout(openTimer);
    if (!cardLink) return;
    var focusWasInCard = inCard(document.activeElement);
    cardLink.removeAttribute("aria-describedby");
    card.hidden = true;
    var link = cardLink;
    cardLink = null;
    if (focusWasInCard) link.focus();
  }
  function scheduleClose() {
    clearTimeout(closeTimer);
    closeTimer = setTimeout(closeCard, 250);
  }

  if (document.querySelector("a.term[data-term]")) {
    document.addEventListener("pointerover", function (event) {
      if (event.pointerType !== "mouse") return;
      var link = termLink(event.target);
      if (link) {
        clearTimeout(closeTimer);
        if (cardLink !== link) {
          clearTimeout(openTimer);
          openTimer = setTimeout(function () { openCard(link); }, 120);
        }
      }
    });
    document.addEventListener("pointerout", function (event) {
      if (event.pointerType !== "mouse") return;
      var link = termLink(event.target);
      if (!link || link.contains(event.relatedTarget)) return;
      clearTimeout(openTimer);
      if (link === cardLink && !inCard(event.relatedTarget) && !cardHasFocus()) scheduleClose();
    });
    document.addEventListener("focusin", function (event) {
      var link = termLink(event.target);
      if (link) openCard(link);
      else if (inCard(event.target)) clearTimeout(closeTimer);
    });
    document.addEventListener("focusout", function (event) {
      if (!cardLink) return;
      var next = event.relatedTarget;
      if (next && (next === cardLink || inCard(next))) return;
      if (event.target === cardLink || inCard(event.target)) closeCard();
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && cardLink && !card.hidden) closeCard();
    });
    // A press outside the link and its card closes the card (click, tap or pen).
    document.addEventListener("pointerdown", function (event) {
      var link = termLink(event.target);
      tapState.touch = event.pointerType !== "mouse";
      tapState.wasOpen = !!(link && link === cardLink && !card.hidden);
      if (cardLink && link !== cardLink && !inCard(event.target)) closeCard();
    });
    // On touch screens the first tap on a term shows its card; a second tap follows the link.
    document.addEventListener("click", function (event) {
      var link = termLink(event.target);
      if (!link || !tapState.touch || tapState.wasOpen) return;
      event.preventDefault();
      tapState.wasOpen = true;
      openCard(link);
    });
    window.addEventListener("resize", positionCard);
    window.addEventListener("scroll", positionCard, { passive: true });
  }

  /* ---------------------------------------------------------------- audio */

  var players = new WeakMap();

  /** An absolute http(s) URL, or null: addresses from the API never become `javascript:` links or page-relative requests. */
  function safeURL(text) {
    if (typeof text !== "string" || !text.trim()) return null;
    try {
      var url = new URL(text.trim());
      return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
    } catch (e) { return null; }
  }

  function audioStatus(button) {
    var item = button.closest(".audio-item");
    return item ? item.querySelector("[data-audio-status]") : null;
  }

  function showAudioProblem(button, message) {
    var status = audioStatus(button);
    button.removeAttribute("aria-pressed");
    players.delete(button); // a new click tries again from scratch
    if (status) {
      status.textContent = message;
      status.classList.add("is-error");
      if (!status.id) status.id = "audio-status-" + Math.random().toString(36).slice(2);
      button.setAttribute("aria-describedby", status.id);
    }
  }

  function playAudio(button) {
    var source = safeURL(button.getAttribute("data-audio"));
    var status = audioStatus(button);
    if (!source) { showAudioProblem(button, "This recording’s address is not valid."); return; }
    if (status) { status.textContent = ""; status.classList.remove("is-error"); }
    var audio = players.get(button);
    if (!audio) {
      audio = new Audio();
      audio.preload = "none"; // nothing is requested until the reader asks for it
      audio.addEventListener("error", function () { showAudioProblem(button, "Couldn’t load this recording. Try again later."); });
      audio.addEventListener("playing", function () { button.setAttribute("aria-pressed", "true"); });
      audio.addEventListener("ended", function () { button.removeAttribute("aria-pressed"); });
      audio.addEventListener("pause", function () { button.removeAttribute("aria-pressed"); });
      audio.src = source;
      players.set(button, audio);
    }
    audio.currentTime = 0;
    var playing = audio.play();
    if (playing && playing.catch) {
      playing.catch(function (error) {
        if (error && error.name === "AbortError") return;
        if (error && error.name === "NotAllowedError") showAudioProblem(button, "The browser blocked playback. Try again.");
        else showAudioProblem(button, "Couldn’t load this recording. Try again later.");
      });
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-audio]") : null;
    if (button) playAudio(button);
  });

  /* ------------------------------------------------------- dictionary page */

  var form = document.querySelector("form[data-dictionary-search]");
  if (form) initDictionary(form);

  function initDictionary(form) {
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
    var lookupNumber = 0;
    var inFlight = null;

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
      errorText.textContent = "Whoops, can't be empty…";
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
    function clearError() {
      errorText.textContent = "";
      input.removeAttribute("aria-invalid");
    }

    /* Instant results: glossary terms matching what is typed, from terms/index.json. */
    function matches(terms, text) {
      var query = foldWord(text);
      if (!query) return [];
      var starts = [], contains = [];
      terms.list.forEach(function (term) {
        var names = [term.word, term.key].concat(term.aliases || []).map(foldWord);
        if (names.some(function (name) { return name.indexOf(query) === 0; })) starts.push(term);
        else if (names.some(function (name) { return name.indexOf(query) > 0; })) contains.push(term);
      });
      return starts.concat(contains).slice(0, 6);
    }
    function hideInstant() {
      instant.hidden = true;
      instantList.replaceChildren();
    }
    function updateInstant() {
      var text = input.value;
      if (!text.trim()) { hideInstant(); return; }
      loadTerms().then(function (terms) {
        if (!terms || input.value !== text) return;
        var found = matches(terms, text);
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

    /* Result views. */
    function stateView(emoji, title, lines, action) {
      return el("div", { className: "state" },
        emoji ? el("p", { className: "state-emoji", "aria-hidden": "true", text: emoji }) : null,
        el("p", { className: "state-title", text: title }),
        lines.filter(Boolean).map(function (line) { return el("p", { text: line }); })
          .reduce(function (fragment, node) { fragment.appendChild(node); return fragment; }, document.createDocumentFragment()),
        action || null);
    }

    function showLoading(word) {
      setResults("loading", el("div", { className: "state" },
        el("span", { className: "spinner", "aria-hidden": "true" }),
        el("p", { className: "state-title", text: "Looking up “" + word + "”…" })));
    }

    function showNotFound(word, body) {
      var title = body && typeof body.title === "string" ? body.title : "No Definitions Found";
      var message = body && typeof body.message === "string" ? body.message
        : "“" + word + "” is not in this glossary" + (liveLookup ? " or the dictionary." : ".");
      var resolution = body && typeof body.resolution === "string" ? body.resolution : null;
      setResults("not-found", stateView("😕", title, [message, resolution]));
      results.setAttribute("data-source", body ? "dictionary" : "glossary");
    }

    function showError(word, message) {
      setResults("error", stateView("⚠️", "Couldn’t reach the dictionary", [message],
        el("button", { type: "button", onclick: function () { lookup(word); } }, "Try again")));
    }

    function showGlossaryTerm(term) {
      document.title = term.word + " · " + baseTitle;
      var view = el("article", { className: "result" },
        el("header", { className: "result-header" },
          el("div", null,
            el("h2", { className: "result-word", text: term.word }),
            term.phonetic ? el("p", { className: "phonetic", text: term.phonetic }) : null)),
        el("p", { className: "result-origin", text: term.source === "glossary" ? "From this glossary" : "From this glossary’s dictionary entries" }),
        el("section", { className: "meaning" },
          el("h3", { className: "meaning-pos" }, el("span", { text: term.part_of_speech || "definition" })),
          term.summary ? el("p", { className: "result-summary", text: term.summary }) : null),
        el("p", null, el("a", { href: term.url, text: "Read the full entry for “" + term.word + "” →" })));
      setResults("found", view);
      results.setAttribute("data-source", "glossary");
    }

    function wordLink(word, terms) {
      var term = terms && terms.byKey[foldWord(word)];
      if (term) return el("a", { href: term.url, text: word });
      return el("button", { type: "button", className: "nym-button", onclick: function () { search(word); } }, word);
    }

    function nymList(label, words, terms) {
      if (!words.length) return null;
      return el("div", { className: "nyms" },
        el("h4", { className: "nyms-label", text: label }),
        el("ul", { className: "nym-list" }, words.map(function (word) { return el("li", null, wordLink(word, terms)); })
          .reduce(function (fragment, node) { fragment.appendChild(node); return fragment; }, document.createDocumentFragment())));
    }

    function strings(list) {
      var seen = {};
      return (Array.isArray(list) ? list : []).filter(function (item) {
        if (typeof item !== "string" || !item.trim() || seen[item]) return false;
        seen[item] = true;
        return true;
      });
    }

    function showEntries(word, entries, terms) {
      entries = entries.filter(function (entry) { return entry && typeof entry === "object"; });
      var first = entries[0] || {};
      var headword = typeof first.word === "string" && first.word ? first.word : word;
      document.title = headword + " · " + baseTitle;
      var phonetics = [];
      entries.forEach(function (entry) { if (Array.isArray(entry.phonetics)) phonetics = phonetics.concat(entry.phonetics); });
      var phonetic = typeof first.phonetic === "string" && first.phonetic ? first.phonetic
        : (phonetics.filter(function (p) { return p && typeof p.text === "string" && p.text; })[0] || {}).text;

      var audioSeen = {};
      var audio = phonetics.filter(function (p) {
        var url = p && typeof p.audio === "string" ? safeURL(p.audio) : null;
        if (!url || audioSeen[url]) return false;
        audioSeen[url] = true;
        return true;
      });
      var audioList = audio.length ? el("div", { className: "audio-list" }) : null;
      audio.forEach(function (p) {
        var accent = (/-(us|uk|au|ca)\.[a-z0-9]+$/i.exec(p.audio) || [])[1];
        var label = accent ? "Play (" + ({ us: "US", uk: "UK", au: "Australia", ca: "Canada" })[accent.toLowerCase()] + ")" : "Play";
        audioList.appendChild(el("div", { className: "audio-item" },
          el("button", { type: "button", className: "play-button", "data-audio": safeURL(p.audio) },
            svgPlay(), el("span", { className: "play-label" }, label, el("span", { className: "visually-hidden", text: " pronunciation of “" + headword + "”" }))),
          el("span", { className: "audio-status", "data-audio-status": true, role: "status" })));
      });

      // Meanings grouped by part of speech across entries, as on term pages.
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

      var view = el("article", { className: "result" },
        el("header", { className: "result-header" },
          el("div", null,
            el("h2", { className: "result-word", text: headword }),
            phonetic ? el("p", { className: "phonetic", text: phonetic }) : null),
          audioList),
        el("p", { className: "result-origin", text: "From the Free Dictionary API" }));
      groups.forEach(function (group) {
        var list = el("ol", { className: "definitions" });
        group.definitions.forEach(function (d) {
          list.appendChild(el("li", null,
            el("p", { className: "definition", text: d.definition }),
            typeof d.example === "string" && d.example ? el("p", { className: "example", text: "“" + d.example + "”" }) : null));
        });
        view.appendChild(el("section", { className: "meaning" },
          el("h3", { className: "meaning-pos" }, el("span", { text: group.part })),
          el("p", { className: "meaning-label", text: "Meaning" }),
          list,
          nymList("Synonyms", group.synonyms, terms),
          nymList("Antonyms", group.antonyms, terms)));
      });

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
        footer.appendChild(el("p", null, "Source: "));
        var sourceList = el("ul", { className: "source-list" });
        sources.forEach(function (url) {
          sourceList.appendChild(el("li", null, el("a", { href: safeURL(url), target: "_blank", rel: "noopener" },
            url, el("span", { className: "visually-hidden", text: " (opens in a new tab)" }))));
        });
        footer.appendChild(sourceList);
      }
      if (licences.length) {
        var line = el("p", null, "Licence: ");
        licences.forEach(function (licence, index) {
          if (index) line.appendChild(document.createTextNode(", "));
          var href = typeof licence.url === "string" ? safeURL(licence.url) : null;
          line.appendChild(href ? el("a", { href: href, target: "_blank", rel: "noopener", text: licence.name }) : document.createTextNode(licence.name));
        });
        footer.appendChild(line);
      }
      if (footer.childNodes.length) view.appendChild(footer);
      setResults("found", view);
      results.setAttribute("data-source", "dictionary");
    }

    function svgPlay() {
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

    function apiURL(word) {
      return apiTemplate.split("{lang}").join(encodeURIComponent(language)).split("{word}").join(encodeURIComponent(word));
    }

    /** Shows `word`: the glossary's own term when it has one, else (with live lookup) the API's answer. */
    function lookup(word) {
      var number = ++lookupNumber;
      if (inFlight) inFlight.abort();
      inFlight = null;
      hideInstant();
      return loadTerms().then(function (terms) {
        if (number !== lookupNumber) return;
        var term = terms && terms.byKey[foldWord(word)];
        if (term) { showGlossaryTerm(term); return; }
        if (!liveLookup) { document.title = word + " · " + baseTitle; showNotFound(word, null); return; }
        document.title = word + " · " + baseTitle;
        showLoading(word);
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
          else if (answer.status === 429) showError(word, "The dictionary is receiving too many requests. Wait a minute, then try again.");
          else if (answer.status < 200 || answer.status >= 300) showError(word, "The dictionary answered with an error (HTTP " + answer.status + "). Try again later.");
          else if (!Array.isArray(answer.body) || !answer.body.length) showNotFound(word, null);
          else showEntries(word, answer.body, terms);
        }, function (error) {
          clearTimeout(timer);
          if (number !== lookupNumber) return;
          inFlight = null;
          if (error && error.name === "AbortError" && !timedOut) return;
          showError(word, timedOut ? "The dictionary took too long to answer. Check your connection and try again."
            : "The network request failed. Check your connection and try again.");
        });
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
    input.addEventListener("focus", function () { loadTerms(); });
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
  }
})();
