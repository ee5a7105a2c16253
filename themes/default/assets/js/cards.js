/* Term cards: a link a.term[data-term=KEY] opens a card with its term's summary (from terms/index.json) on
   hover, focus and tap; Escape, a press outside, or focus leaving closes it. One card element serves every
   link: it moves to just after the link it describes, so Tab reaches the card's own link next. The card holds a
   link, so it is no ARIA tooltip: it is a non-modal dialog named by its term, and the term link discloses it
   (aria-expanded, aria-controls). */
(function (Glossary) {
  "use strict";

  if (!document.querySelector("a.term[data-term]")) return;

  var el = Glossary.el;
  var card = null;        // the card element, made on first use
  var cardLink = null;    // the link whose card is open
  var openTimer = 0, closeTimer = 0;
  var tapState = { touch: false, wasOpen: false };
  var returning = false;   // focus is being given back to the link by closeCard

  function termLink(node) {
    return node && node.closest ? node.closest("a.term[data-term]") : null;
  }
  function inCard(node) { return !!(card && node && card.contains(node)); }

  function ensureCard() {
    if (card) return card;
    card = el("span", { className: "term-card", id: "term-card", role: "dialog", "data-term-card": true, hidden: true });
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

  // A card's text as HTML (terms/index.json's summary_html, which the build made from markdown in cmark's safe
  // mode) is rebuilt from an allow-list into new elements, never assigned as HTML: inline markup stays, links stay when they lead to
  // http(s) or mailto (relative ones resolved against the term's page), every attribute but href is dropped, and
  // scripts, styles and anything else unknown leave only their text (scripts not even that).
  var INLINE = { EM: "em", STRONG: "strong", CODE: "code", DEL: "del", BR: "br", A: "a" };
  var DROPPED = { SCRIPT: true, STYLE: true, TEMPLATE: true, IFRAME: true, OBJECT: true, SVG: true, MATH: true };

  function safeNodes(source, base) {
    var out = [];
    Array.prototype.forEach.call(source.childNodes, function (node) {
      if (node.nodeType === 3) { out.push(document.createTextNode(node.nodeValue)); return; }
      if (node.nodeType !== 1 || DROPPED[node.tagName.toUpperCase()]) return;
      var children = safeNodes(node, base);
      var tag = INLINE[node.tagName.toUpperCase()];
      var url = null;
      if (tag === "a") {
        try { url = new URL(node.getAttribute("href") || "", base); } catch (error) { url = null; }
        if (url && !/^(https?|mailto):$/.test(url.protocol)) url = null;
        if (!url) tag = null;
      }
      if (!tag) { out.push.apply(out, children); return; }
      var copy = el(tag, url ? { href: url.href } : null);
      children.forEach(function (child) { copy.appendChild(child); });
      out.push(copy);
    });
    return out;
  }

  function summary(term) {
    var box = el("span", { className: "term-card-summary" });
    if (term && typeof term.summary_html === "string") {
      // Read as XML (cmark writes well-formed XHTML): its elements are no HTML elements, so nothing in it loads, runs
      // or even asks the page's Content-Security-Policy; text that is not well-formed shows as the plain summary.
      var parsed = new DOMParser().parseFromString("<card>" + term.summary_html + "</card>", "application/xml");
      var root = parsed.documentElement;
      if (root && root.nodeName === "card" && !parsed.getElementsByTagName("parsererror").length) safeNodes(root, new URL(term.url, document.baseURI)).forEach(function (node) { box.appendChild(node); });
      if (box.textContent.trim()) return box;
    }
    box.textContent = term && term.summary ? term.summary : Glossary.say("card_no_summary", "Open the term page for its definition.");
    return box;
  }

  // A term that is not the preferred one says so, with the term to write instead: "Deprecated term — use server".
  var STATUS = {
    admitted: function () { return Glossary.say("status_admitted", "Admitted term"); },
    deprecated: function () { return Glossary.say("status_deprecated", "Deprecated term"); },
    forbidden: function () { return Glossary.say("status_forbidden", "Forbidden term"); }
  };
  function status(term) {
    var label = term && STATUS.hasOwnProperty(term.status) ? STATUS[term.status]() : null;
    if (!label) return null;
    var text = typeof term.use === "string" && term.use ? Glossary.say("card_use", "{status} — use {use}", { status: label, use: term.use }) : label;
    return el("span", { className: "term-card-status", "data-term-status": term.status, text: text });
  }

  function fillCard(link, term) {
    var word = term ? term.word + (term.sense ? " (" + term.sense + ")" : "") : link.textContent;
    var href = term ? term.url : link.getAttribute("href");
    var meta = el("span", { className: "term-card-meta" },
      term && term.part_of_speech ? el("span", { className: "pos", text: term.part_of_speech }) : null,
      term && term.part_of_speech && term.phonetic ? " " : null,
      term && term.phonetic ? el("span", { className: "phonetic", text: term.phonetic }) : null);
    card.setAttribute("aria-label", word);
    // With cards: {show_source_term: true}, the concept's term in the site's default language.
    var source = term && term.source_term ? el("span", { className: "term-card-source", lang: term.source_term.language, text: term.source_term.word }) : null;
    // replaceChildren would write a null as the text "null": the parts a term lacks are left out first.
    card.replaceChildren.apply(card, [
      el("span", { className: "term-card-word", text: word }, source ? " " : null, source),
      meta.childNodes.length ? meta : null,
      status(term),
      summary(term),
      el("a", { className: "term-card-link", href: href }, Glossary.say("read_entry", "Read the entry for “{word}” →", { word: word }))
    ].filter(Boolean));
  }

  // Placed with CSSOM (element.style), which the pages' Content-Security-Policy allows, unlike style attributes.
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
    link.insertAdjacentElement("afterend", card);
    Glossary.lookupTerm(link.getAttribute("data-term") || "").then(function (term) {
      if (cardLink !== link) return;
      fillCard(link, term);
      card.hidden = false;
      link.setAttribute("aria-controls", card.id);
      link.setAttribute("aria-expanded", "true");
      positionCard();
    });
  }

  function closeCard() {
    clearTimeout(closeTimer);
    clearTimeout(openTimer);
    if (!cardLink) return;
    var focusWasInCard = inCard(document.activeElement);
    cardLink.setAttribute("aria-expanded", "false");
    card.hidden = true;
    var link = cardLink;
    cardLink = null;
    // Focus goes back to the link without opening the card again.
    if (focusWasInCard) { returning = true; link.focus(); returning = false; }
  }
  function scheduleClose() {
    clearTimeout(closeTimer);
    closeTimer = setTimeout(closeCard, 250);
  }

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
    var link = !returning && termLink(event.target);
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
})(window.Glossary);
