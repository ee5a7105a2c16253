/* Dark mode: the switch with data-theme-toggle. The inline script in <head> (head-script.mustache) has
   already set <html data-theme> before the first paint; this keeps it, the switch and other tabs in step. */
(function (Glossary) {
  "use strict";

  var root = document.documentElement;
  var KEY = "glossary-theme";
  var darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var toggles = Array.prototype.slice.call(document.querySelectorAll("[data-theme-toggle]"));

  function valid(value) { return value === "light" || value === "dark" ? value : null; }
  function systemTheme() { return darkQuery && darkQuery.matches ? "dark" : "light"; }
  function current() { return valid(Glossary.readStored(KEY)) || systemTheme(); }

  function apply(theme) {
    root.setAttribute("data-theme", theme);
    toggles.forEach(function (toggle) { toggle.setAttribute("aria-checked", theme === "dark" ? "true" : "false"); });
  }

  toggles.forEach(function (toggle) {
    toggle.addEventListener("click", function () {
      var next = root.getAttribute("data-theme") === "dark" ? "light" : "dark";
      apply(next);
      Glossary.writeStored(KEY, next);
    });
  });
  // Until the reader chooses, follow the system as it changes (e.g. at sunset).
  if (darkQuery) {
    var followSystem = function () { if (!valid(Glossary.readStored(KEY))) apply(systemTheme()); };
    if (darkQuery.addEventListener) darkQuery.addEventListener("change", followSystem);
    else if (darkQuery.addListener) darkQuery.addListener(followSystem);
  }
  // Other open tabs follow a choice made here (and a cleared storage resets to the default).
  window.addEventListener("storage", function (event) {
    if (event.key === KEY || event.key === null) apply(current());
  });
  // A page restored from the back/forward cache may predate a choice made on another page.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) apply(current());
  });
  apply(valid(root.getAttribute("data-theme")) || current());
})(window.Glossary);
