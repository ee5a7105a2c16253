(function () {
  "use strict";
  var root = document.documentElement;
  function store(key, value) { try { localStorage.setItem(key, value); } catch (e) {} }

  var toggle = document.querySelector("[data-theme-toggle]");
  function showTheme() { if (toggle) toggle.setAttribute("aria-checked", root.getAttribute("data-theme") === "dark" ? "true" : "false"); }
  if (toggle) {
    toggle.addEventListener("click", function () {
      var next = root.getAttribute("data-theme") === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      store("glossary-theme", next);
      showTheme();
    });
  }
  showTheme();

  var fonts = document.querySelector("[data-font-switcher]");
  if (fonts) {
    fonts.value = root.getAttribute("data-font") || "sans";
    fonts.addEventListener("change", function () {
      root.setAttribute("data-font", fonts.value);
      store("glossary-font", fonts.value);
    });
  }
})();
