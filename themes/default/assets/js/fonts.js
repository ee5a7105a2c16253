/* The font switcher: the <select data-font-switcher> of Sans Serif, Serif and Mono. The inline script in
   <head> has already set <html data-font> before the first paint; this keeps it, the menus and other tabs
   in step. */
(function (Glossary) {
  "use strict";

  var root = document.documentElement;
  var KEY = "glossary-font";
  var switchers = Array.prototype.slice.call(document.querySelectorAll("[data-font-switcher]"));

  function valid(value) { return value === "sans" || value === "serif" || value === "mono" ? value : null; }
  function current() { return valid(Glossary.readStored(KEY)) || "sans"; }

  function apply(font) {
    root.setAttribute("data-font", font);
    switchers.forEach(function (select) { select.value = font; });
  }

  switchers.forEach(function (select) {
    select.addEventListener("change", function () {
      var font = valid(select.value) || "sans";
      apply(font);
      Glossary.writeStored(KEY, font);
    });
  });
  // Other open tabs follow a choice made here (and a cleared storage resets to the default).
  window.addEventListener("storage", function (event) {
    if (event.key === KEY || event.key === null) apply(current());
  });
  // A page restored from the back/forward cache may predate a choice made on another page.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) apply(current());
  });
  apply(valid(root.getAttribute("data-font")) || "sans");
})(window.Glossary);
