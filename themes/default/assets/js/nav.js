/* The sidebar on narrow screens: folded behind a "Pages" button until asked for. The button is made here, as
   it only works with scripts; the stylesheet folds the sidebar only when scripts run (the head script sets
   data-theme), so without JavaScript it is simply open. */
(function (Glossary) {
  "use strict";

  var sidebar = document.querySelector("[data-sidebar]");
  if (!sidebar) return;
  var toggle = Glossary.el("button", { type: "button", className: "sidebar-toggle", "aria-expanded": "false", "data-sidebar-toggle": true }, Glossary.say("pages", "Pages"));
  sidebar.insertBefore(toggle, sidebar.firstChild);

  function setOpen(open) {
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    sidebar.classList.toggle("is-open", open);
  }
  toggle.addEventListener("click", function () { setOpen(toggle.getAttribute("aria-expanded") !== "true"); });
})(window.Glossary);
