/* Code blocks: a Copy button on each, and colours for those that name their language (```yaml), by
   highlight.js (assets/vendor/highlight.min.js, from Debian's libjs-highlight.js), loaded only by pages that
   have such blocks. The colours are the stylesheet's, for the light and the dark theme. Without JavaScript
   code blocks are plain, and as readable. */
(function (Glossary) {
  "use strict";

  var blocks = Array.prototype.slice.call(document.querySelectorAll(".prose pre > code"));
  if (!blocks.length) return;
  var el = Glossary.el;
  var root = document.body.getAttribute("data-root") || "/";

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    // Pages opened from disk, or over plain http from another machine: the old way.
    return new Promise(function (resolve, reject) {
      var area = el("textarea", { className: "copy-buffer", readonly: true, "aria-hidden": "true" });
      area.value = text;
      document.body.appendChild(area);
      area.select();
      var copied = false;
      try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
      area.remove();
      if (copied) resolve(); else reject(new Error("copy refused"));
    });
  }

  blocks.forEach(function (code) {
    var pre = code.parentNode;
    var wrapper = el("div", { className: "code-block" });
    pre.parentNode.insertBefore(wrapper, pre);
    wrapper.appendChild(pre);
    var label = el("span", { className: "copy-label" }, Glossary.say("copy", "Copy"));
    var button = el("button", { type: "button", className: "copy-button", "aria-label": Glossary.say("copy_code", "Copy code") }, label);
    var status = el("span", { className: "visually-hidden", role: "status" });
    var timer = null;
    function say(text, shown) {
      label.textContent = shown;
      status.textContent = text;
      clearTimeout(timer);
      timer = setTimeout(function () { label.textContent = Glossary.say("copy", "Copy"); status.textContent = ""; }, 2000);
    }
    button.addEventListener("click", function () {
      copyText(code.textContent).then(function () { say(Glossary.say("copied_long", "Copied to the clipboard"), Glossary.say("copied", "Copied")); },
      function () { say(Glossary.say("not_copied_long", "Could not copy; select the text instead"), Glossary.say("not_copied", "Not copied")); });
    });
    wrapper.appendChild(button);
    wrapper.appendChild(status);
  });

  function language(code) {
    var match = /(?:^|\s)language-([\w+#.-]+)/.exec(code.className);
    return match ? match[1] : null;
  }
  var coloured = blocks.filter(function (code) { return language(code); });
  if (!coloured.length) return;
  var script = el("script", { src: root + "assets/vendor/highlight.min.js" });
  script.addEventListener("load", function () {
    var hljs = window.hljs;
    if (!hljs) return;
    hljs.configure({ hideUpgradeWarningAcceptNoSupportOrSecurityUpdates: true });
    coloured.forEach(function (code) {
      // Languages highlight.js doesn't know (and "text") stay plain rather than being guessed at.
      if (hljs.getLanguage(language(code))) hljs.highlightBlock(code);
    });
  });
  document.head.appendChild(script);
})(window.Glossary);
