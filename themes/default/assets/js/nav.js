/* The sidebar on narrow screens: folded behind its "Pages" button until asked for (the stylesheet folds it
   only when scripts run, so without JavaScript it is simply open). */
(function () {
  "use strict";

  var sidebar = document.querySelector("[data-sidebar]");
  var toggle = sidebar && sidebar.querySelector("[data-sidebar-toggle]");
  if (!toggle) return;

  function setOpen(open) {
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    sidebar.classList.toggle("is-open", open);
  }
  toggle.addEventListener("click", function () { setOpen(toggle.getAttribute("aria-expanded") !== "true"); });
  setOpen(false);
})();
