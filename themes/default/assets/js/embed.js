/* embed.js, at the glossary's root: <script src="https://glossary.example/embed.js" defer></script> on any page links
   `[[word]]`, `[[text|word]]`, elements marked data-term="word" and, with data-autolink="first|all", plain occurrences
   of the glossary's forms (whole words, longest first, case rules from the index), never in code, pre, headings, links,
   buttons, nav or [data-glossary-skip]; data-scope="selector" limits it. Its links look as embed.css makes annotate's,
   and all open the same card: a non-modal dialog in a Shadow DOM with an adopted stylesheet (no inline style, no eval),
   dark when the host prefers it or matches data-dark="selector". It asks only the glossary's origin for terms/api.json,
   without cookies, stores nothing, and inserts the index's text as text or rebuilt from an allow-list (README). */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || window.glossaryEmbed) return;
  window.glossaryEmbed = true;
  var AUTOLINK = script.getAttribute("data-autolink"), AUTO = AUTOLINK === "first" || AUTOLINK === "all";
  var INDEX = new URL("terms/api.json", script.src), SCOPE = script.getAttribute("data-scope"), DARK = script.getAttribute("data-dark");
  var SKIP = "code,pre,kbd,samp,script,style,textarea,select,button,a,nav,h1,h2,h3,h4,h5,h6,[contenteditable]," +
    "[data-glossary-skip],[data-glossary-card]";
  var WORD = /[\p{L}\p{M}\p{N}_]+(?:['\u2019][\p{L}\p{M}\p{N}_]+)*/gu, GAP = /[^\s\p{L}\p{M}\p{N}_'\u2019-]/u;
  var REFERENCE = /\[\[([^\[\]|\n]{1,200}?)(?:\|([^\[\]|\n]{1,200}?))?\]\]/g, MAX_SUMMARY = 4000, MAX_TEXT = 600;
  function exact(text) { return String(text).normalize("NFC").replace(/[\u2018\u2019]/g, "'").replace(/\s+/g, " ").trim(); }
  function fold(text) { return exact(text).toLowerCase(); }
  // An element with these attributes and children (strings become text nodes, never markup).
  function el(tag, attributes, children, namespace) {
    var node = namespace ? document.createElementNS(namespace, tag) : document.createElement(tag);
    Object.keys(attributes).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    node.append.apply(node, children || []);
    return node;
  }
  /* The term API: one file, or a manifest of shards by key range (each with its first key), loaded as words need them:
     a word's shard is the last whose first key is at or before it (strings compare by UTF-16 units, as the build sorts). */
  // Tables without a prototype: a word like "constructor" is nobody's term.
  var manifest = null, loaded = dict(), byKey = dict(), byForm = dict(), byExact = dict(), maxWords = 1, title = "Glossary";
  function dict() { return Object.create(null); }
  function getJSON(url) {
    return fetch(url, { credentials: "omit", mode: "cors" }).then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); });
  }
  function add(terms, base) {
    (Array.isArray(terms) ? terms : []).forEach(function (term) {
      if (!term || typeof term.key !== "string" || byKey[term.key]) return;
      try { term.href = new URL(String(term.url), base).href; } catch (e) { return; }
      if (!/^https?:$/.test(new URL(term.href).protocol)) return;
      byKey[term.key] = term;
      if (!byForm[term.key]) byForm[term.key] = term;
      [term.word].concat(term.aliases || [], term.forms || []).forEach(function (form) {
        if (typeof form !== "string") return;
        maxWords = Math.max(maxWords, Math.min(8, form.split(/[\s-]+/).length));
        if (term.case_sensitive) {
          byExact[exact(form)] = byExact[exact(form)] || term;
          if (/[A-RT-Z]$/.test(form)) byExact[exact(form + "s")] = byExact[exact(form + "s")] || term;
        } else if (!byForm[fold(form)]) byForm[fold(form)] = term;
      });
    });
  }
  function load(words) {
    var start = manifest || (manifest = getJSON(INDEX).then(function (data) {
      if (data && typeof data.title === "string") title = data.title.slice(0, 200);
      add(data && data.terms, INDEX);
      var shards = Array.isArray(data && data.shards) ? data.shards : [];
      return shards.filter(function (s) { return s && typeof s.first === "string" && typeof s.file === "string"; });
    }));
    return start.then(function (shards) {
      return Promise.all(words.map(function (word) {
        var key = fold(word), low = 0, high = shards.length, mid;
        while (low < high) if (shards[(mid = (low + high) >> 1)].first <= key) low = mid + 1; else high = mid;
        var url = low && new URL(shards[low - 1].file, INDEX), file = url && url.href;
        if (!url || url.origin !== INDEX.origin) return null;
        // A shard on its way is waited for too (a card opened while the scan loads it); a failed one is asked again.
        if (!loaded[file]) loaded[file] = getJSON(url).then(function (shard) { add(shard && shard.terms, url); }, function () { delete loaded[file]; });
        return loaded[file];
      }));
    }).catch(function () { manifest = null; });
  }
  function lookup(word) { return byExact[exact(word)] || byForm[fold(word)] || null; }
  /* Linking. The links look as embed.css makes those `glossary annotate` wrote: its rules, adopted by the document once
     (a constructed sheet, which a strict Content-Security-Policy allows where a <style> or style attribute it would not). */
  var LINKS = "a.glossary-term{text-decoration:underline dotted;text-decoration-thickness:1px;text-underline-offset:.2em}" +
    "a.glossary-term:hover,a.glossary-term[aria-expanded=true]{text-decoration-style:solid}a.glossary-term::after{" +
    "content:\"\\2197\";content:\"\\2197\"/\"\";display:inline-block;margin-left:.1em;font-size:.7em;line-height:0;text-decoration:none;opacity:.7}";
  var linkSheet = null, linkedOnPage = dict(), page = location.pathname;
  function makeLink(term, children) {
    if (!linkSheet && document.adoptedStyleSheets) {
      (linkSheet = new CSSStyleSheet()).replaceSync(LINKS);
      document.adoptedStyleSheets = Array.from(document.adoptedStyleSheets).concat([linkSheet]);
    }
    linkedOnPage[term.key] = true;
    return el("a", { class: "glossary-term", href: term.href, "data-glossary-term": term.key }, children);
  }
  function textNodes(root) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT), list = [], node;
    while ((node = walker.nextNode())) if (node.nodeValue.trim() && !node.parentElement.closest(SKIP)) list.push(node);
    return list;
  }
  function roots() { return Array.prototype.filter.call(SCOPE ? document.querySelectorAll(SCOPE) : [document.body], Boolean); }
  function linkReferences(node) {
    var parts = node.nodeValue.split(REFERENCE), pieces = [parts[0]]; // text, then for each reference: shown, word, text
    for (var i = 1; i < parts.length; i += 3) {
      var term = lookup(parts[i + 1] || parts[i]);
      pieces.push(term ? makeLink(term, [parts[i]]) : parts[i], parts[i + 2]);
    }
    if (parts.length > 1) node.replaceWith.apply(node, pieces);
  }
  /* For each word of a text (a possessive 's left out), the spans of up to `most` words from it on that may be one
     form (nothing but spaces, hyphens and apostrophes between them), longest first. Plain text matches a case-sensitive
     term only as spelled (a reference names it in any case). */
  function spans(text, most) {
    var words = Array.from(text.matchAll(WORD), function (m) { return { start: m.index, end: m.index + m[0].length - (/['\u2019]s$/i.test(m[0]) ? 2 : 0) }; });
    return words.map(function (first, i) {
      for (var list = [], n = Math.min(most, words.length - i), last; n >= 1; n--) {
        last = words[i + n - 1];
        if (!GAP.test(text.slice(first.end, last.start))) list.push({ start: first.start, end: last.end, text: text.slice(first.start, last.end) });
      }
      return list;
    });
  }
  function autolink(node) {
    var text = node.nodeValue, pieces = [], last = 0;
    spans(text, maxWords).forEach(function (list) {
      list.some(function (span) {
        var term = span.start >= last && lookup(span.text);
        if (!term || (term.case_sensitive && byExact[exact(span.text)] !== term) || (AUTOLINK === "first" && linkedOnPage[term.key])) return false;
        pieces.push(text.slice(last, span.start), makeLink(term, [span.text]));
        last = span.end;
        return true;
      });
    });
    if (pieces.length) node.replaceWith.apply(node, pieces.concat(text.slice(last)));
  }
  function scan() {
    if (location.pathname !== page) { page = location.pathname; linkedOnPage = dict(); }
    var scopes = roots(), nodes = scopes.flatMap(textNodes), words = [];
    // A marked element is linked once: later scans find its link inside it.
    var marked = scopes.flatMap(function (root) { return Array.from(root.querySelectorAll("[data-term]:not([data-glossary-term])")); })
      .filter(function (node) { return !node.querySelector("a[data-glossary-term]"); });
    nodes.forEach(function (node) {
      Array.from(node.nodeValue.matchAll(REFERENCE)).forEach(function (m) { words.push(m[2] || m[1]); });
      // Every span that may be a form (of up to 8 words, the most a form counts), for the shard where it falls.
      if (AUTO) spans(node.nodeValue, 8).flat().forEach(function (span) { words.push(span.text); });
    });
    marked.forEach(function (node) { words.push(node.getAttribute("data-term")); });
    if (words.length) load(words).then(function () {
      observer.disconnect();
      nodes.forEach(function (node) { if (node.parentNode && node.nodeValue.indexOf("[[") >= 0) linkReferences(node); });
      marked.forEach(function (node) {
        var term = lookup(node.getAttribute("data-term") || "");
        if (term && !node.closest("a, [data-glossary-skip]")) node.appendChild(makeLink(term, Array.from(node.childNodes)));
      });
      document.querySelectorAll("a[data-glossary-term]").forEach(function (a) {
        var term = lookup(a.getAttribute("data-glossary-term"));
        if (term) linkedOnPage[term.key] = true;
      });
      if (AUTO) roots().flatMap(textNodes).forEach(autolink);
      observe();
    });
  }
  /* The card: one host element after the open link (so Tab reaches the card's link next), its content in a shadow root. */
  var DARK_COLOURS = "--bg:#1c2128;--fg:#e6edf3;--line:#444c56;--muted:#a8b3bd;--link:#79c0ff";
  var CSS = ":host{all:initial;display:contents}.card{--bg:#fff;--fg:#1f2328;--line:#c9ccd3;--muted:#57606a;--link:#0a58ca;position:fixed;" +
    "z-index:2147483647;box-sizing:border-box;max-width:min(22rem,calc(100vw - 16px));padding:.75rem 1rem;border:1px solid var(--line);" +
    "border-radius:8px;background:var(--bg);color:var(--fg);box-shadow:0 6px 24px rgba(0,0,0,.18);font:15px/1.45 system-ui,sans-serif;" +
    "text-align:left;white-space:normal;overflow-wrap:anywhere}.card[hidden]{display:none}.from{display:flex;gap:.35rem;align-items:center;" +
    "font-size:.8rem;color:var(--muted)}.from svg{width:14px;height:14px;fill:none;stroke:currentColor;stroke-width:2}.word{display:block;" +
    "font-weight:700;font-size:1.05rem;margin:.2rem 0 0}.meta{display:block;color:var(--muted);font-size:.9rem}.summary{display:block;" +
    "margin:.35rem 0 .5rem;max-height:12rem;overflow:auto}a{color:var(--link)}a:focus-visible{outline:2px solid currentColor;outline-offset:2px}" +
    ".more{font-weight:600;font-size:.9rem}.dark{" + DARK_COLOURS + "}@media (prefers-color-scheme:dark){.auto{" + DARK_COLOURS + "}}";
  var host = null, card = null, openLink = null, openTimer = 0, closeTimer = 0, returning = false, tap = { touch: false, wasOpen: false };
  function cardHasFocus() { var a = document.activeElement; return !!(a && (a === openLink || a === host)); }
  /* summary_html rebuilt from an allow-list by a small tokenizer (the build wrote it with only these elements; anything
     else in it leaves its text, or nothing for script-like elements): no HTML parser, so nothing in it loads or runs,
     and nothing it holds can trip the host page's Content-Security-Policy. At most MAX_TEXT characters of text. */
  var NAMED = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0" };
  function decode(text) {
    return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/gi, function (all, e) {
      if (e[0] !== "#") return NAMED[e.toLowerCase()] || all;
      try { return String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)); } catch (x) { return ""; }
    });
  }
  function summary(term) {
    var box = el("span", { class: "summary" }), stack = [box], skip = 0, left = MAX_TEXT, token = /<(\/?)([a-z][a-z0-9]*)([^>]*)>|([^<]+)|</gi, m;
    var html = typeof term.summary_html === "string" && term.summary_html.length <= MAX_SUMMARY ? term.summary_html : "";
    while (left > 0 && (m = token.exec(html))) {
      if (!m[2]) {
        if (skip) continue;
        var text = decode(m[4] || "<").slice(0, left);
        left -= text.length;
        stack[stack.length - 1].append(text);
        continue;
      }
      var name = m[2].toLowerCase(), closing = !!m[1];
      if (/^(script|style|template|iframe|object|svg|math|textarea|title)$/.test(name)) skip = Math.max(0, skip + (closing ? -1 : /\/$/.test(m[3]) ? 0 : 1));
      if (skip || !/^(em|strong|code|del|br|a)$/.test(name)) continue;
      if (closing) { for (var i = stack.length - 1; i > 0; i--) if (stack[i].localName === name) { stack.length = i; break; } continue; }
      var node = document.createElement(name), href = name === "a" && /\shref="([^"]*)"/i.exec(m[3]), url = null;
      try { url = href ? new URL(decode(href[1]), term.href) : null; } catch (e) { url = null; }
      if (url && /^(https?|mailto):$/.test(url.protocol)) node.href = url.href;
      stack[stack.length - 1].appendChild(node);
      if (name !== "br") stack.push(node);
    }
    if (!box.textContent.trim()) box.textContent = typeof term.summary === "string" ? term.summary.slice(0, MAX_TEXT) : "Open the entry for its definition.";
    return box;
  }
  function fill(term) {
    var word = String(term.word || term.key).slice(0, 200) + (term.sense ? " (" + String(term.sense).slice(0, 100) + ")" : "");
    var meta = el("span", { class: "meta" }), svg = "http://www.w3.org/2000/svg";
    // The icon, an arrow out of a box: the term is another site's.
    var icon = el("svg", { viewBox: "0 0 24 24", "aria-hidden": "true" }, [el("path", { d: "M14 4h6v6M20 4l-9 9M18 14v6H4V6h6" }, [], svg)], svg);
    if (typeof term.part_of_speech === "string") meta.append(el("i", {}, [term.part_of_speech.slice(0, 60)]));
    if (typeof term.phonetic === "string") meta.append(" " + term.phonetic.slice(0, 100));
    card.setAttribute("aria-label", word);
    card.replaceChildren(el("span", { class: "from" }, [icon, "From " + title]), el("span", { class: "word" }, [word]), meta.hasChildNodes() ? meta : "",
      summary(term), el("a", { class: "more", href: term.href }, ["Read \u201c" + word + "\u201d in " + title + " \u2192"]));
    card.className = "card " + (!DARK ? "auto" : document.querySelector(DARK) ? "dark" : "light");
  }
  function position() {
    if (!openLink || card.hidden) return;
    var r = openLink.getClientRects()[0] || openLink.getBoundingClientRect(), w = document.documentElement.clientWidth, h = window.innerHeight;
    if (r.bottom < 0 || r.top > h) { close(); return; }
    var left = Math.max(8, Math.min(r.left, w - card.offsetWidth - 8)), top = r.bottom + 8;
    if (top + card.offsetHeight > h - 8 && r.top - 8 - card.offsetHeight >= 8) top = r.top - 8 - card.offsetHeight;
    card.style.left = Math.round(left) + "px"; // CSSOM, which a strict CSP allows (a style attribute it would not)
    card.style.top = Math.round(top) + "px";
  }
  function open(link) {
    clearTimeout(closeTimer); clearTimeout(openTimer);
    if (openLink === link && !card.hidden) return;
    if (openLink) close();
    if (!host) {
      host = el("span", { "data-glossary-card": "" });
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      host.attachShadow({ mode: "open" }).adoptedStyleSheets = [sheet];
      card = host.shadowRoot.appendChild(el("div", { class: "card", role: "dialog", "data-term-card": "", hidden: "" }));
      card.addEventListener("pointerenter", function () { clearTimeout(closeTimer); });
      card.addEventListener("pointerleave", function (e) { if (e.pointerType === "mouse" && !cardHasFocus()) scheduleClose(); });
    }
    openLink = link;
    var key = link.getAttribute("data-glossary-term");
    load([key]).then(function () {
      var term = byKey[key] || lookup(key);
      if (openLink !== link || !term) return;
      link.insertAdjacentElement("afterend", host);
      fill(term);
      card.hidden = false;
      link.setAttribute("aria-expanded", "true");
      position();
    });
  }
  function close() {
    clearTimeout(closeTimer); clearTimeout(openTimer);
    if (!openLink) return;
    var link = openLink, focusWasInCard = document.activeElement === host;
    openLink = null;
    card.hidden = true;
    link.setAttribute("aria-expanded", "false");
    if (focusWasInCard) { returning = true; link.focus(); returning = false; } // back to the link, the card staying shut
  }
  function scheduleClose() { clearTimeout(closeTimer); closeTimer = setTimeout(close, 250); }
  function termLink(node) { return node && node.closest ? node.closest("a[data-glossary-term]") : null; }
  document.addEventListener("pointerover", function (e) {
    var link = e.pointerType === "mouse" && termLink(e.target);
    if (link) clearTimeout(closeTimer);
    if (link && link !== openLink) { clearTimeout(openTimer); openTimer = setTimeout(function () { open(link); }, 120); }
  });
  document.addEventListener("pointerout", function (e) {
    var link = e.pointerType === "mouse" && termLink(e.target);
    if (!link || link.contains(e.relatedTarget)) return;
    clearTimeout(openTimer);
    if (link === openLink && e.relatedTarget !== host && !cardHasFocus()) scheduleClose();
  });
  document.addEventListener("focusin", function (e) {
    var link = !returning && termLink(e.target);
    if (link) open(link); else if (e.target === host) clearTimeout(closeTimer);
  });
  document.addEventListener("focusout", function (e) {
    if (openLink && [openLink, host].indexOf(e.target) >= 0 && [openLink, host].indexOf(e.relatedTarget) < 0) close();
  });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && openLink) close(); });
  document.addEventListener("pointerdown", function (e) {
    var link = termLink(e.target);
    tap = { touch: e.pointerType !== "mouse", wasOpen: !!link && link === openLink && !card.hidden };
    if (openLink && link !== openLink && e.composedPath().indexOf(host) < 0) close();
  });
  document.addEventListener("click", function (e) {
    var link = termLink(e.target);
    if (!link || !tap.touch || tap.wasOpen) return;
    e.preventDefault();
    tap.wasOpen = true;
    open(link);
  });
  window.addEventListener("resize", position);
  window.addEventListener("scroll", position, { passive: true });
  /* Single-page sites swap their content in: scan what they add (never what this script adds itself). */
  var pending = 0, observer = new MutationObserver(function (records) {
    if (!pending && records.some(function (r) { return Array.prototype.some.call(r.addedNodes, function (n) { return n !== host; }); }))
      pending = setTimeout(function () { pending = 0; scan(); }, 50);
  });
  function observe() { observer.observe(document.body, { childList: true, subtree: true }); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan); else scan();
  observe();
})();
