/* Glossary default theme: what its other scripts share, as window.Glossary.

   The theme's scripts are small classic scripts, one per feature, loaded with `defer` so they run in
   order once the page is parsed: ES modules would be simpler to wire, but browsers refuse them on pages
   opened from disk (file://), and a built site must work there too. Everything here improves pages that
   are complete without it. Text from outside the site (the dictionary API) is only ever inserted with
   textContent. */
(function () {
  "use strict";

  var Glossary = window.Glossary = {};

  // The page's words for the scripts (<body data-strings>, from the theme's i18n/<lang>.yml); none on a page whose
  // words are the English ones each script has.
  var words = {};
  try { words = JSON.parse(document.body.getAttribute("data-strings") || "{}"); } catch (e) { words = {}; }

  /** The page's string `name` (`english` without it), its {placeholders} filled from `values`. */
  Glossary.say = function (name, english, values) {
    var text = typeof words[name] === "string" ? words[name] : english;
    return text.replace(/\{(\w+)\}/g, function (all, key) { return values && key in values ? String(values[key]) : all; });
  };

  // Storage can be blocked (privacy modes, sandboxed frames): then choices last for the page only.
  Glossary.readStored = function (key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  };
  Glossary.writeStored = function (key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* not kept; still applied */ }
  };

  /** Element helper: el("p", {className: "x"}, "text", child, ...). Strings become text nodes; `onclick`
      and friends become listeners (never attributes: the pages' Content-Security-Policy forbids those). */
  Glossary.el = function (tag, props) {
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
  };

  /** An absolute http(s) URL, or null: addresses from the API never become `javascript:` links or page-relative requests. */
  Glossary.safeURL = function (text) {
    if (typeof text !== "string" || !text.trim()) return null;
    try {
      var url = new URL(text.trim());
      return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
    } catch (e) { return null; }
  };
})();
