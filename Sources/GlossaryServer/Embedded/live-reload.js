(() => {
  "use strict";
  const scrollKey = "glossary-scroll:" + location.pathname;
  try {
    const saved = JSON.parse(sessionStorage.getItem(scrollKey) || "null");
    if (saved) {
      sessionStorage.removeItem(scrollKey);
      const restore = () => window.scrollTo(saved.x, saved.y);
      restore();
      addEventListener("load", restore, { once: true });
    }
  } catch (_) {}
  const navigation = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
  const timing = navigation && navigation.serverTiming ? navigation.serverTiming.find((t) => t.name === "glossary-build") : null;
  let pageBuild = timing ? timing.description : null;
  const here = (() => {
    let path = location.pathname;
    try { path = decodeURIComponent(path); } catch (_) {}
    return path.endsWith("/index.html") ? path.slice(0, -"index.html".length) : path;
  })();
  // Files of the site no page loads: the search index (fetched when a query is typed), the term API and the embed
  // script for other sites, the exports, and the files for crawlers and language models.
  const notLoaded = /\/(search\/(index|shards\/[0-9a-f]+|docs\/\d+)\.json|terms\/api(\.[0-9a-f]+)?\.json|embed\.(js|css)|glossary\.(json|csv|tbx)|sitemap\.xml|robots\.txt|llms(-full)?\.txt|index\.md)$/;
  function reload() {
    try { sessionStorage.setItem(scrollKey, JSON.stringify({ x: scrollX, y: scrollY })); } catch (_) {}
    location.reload();
  }
  function swapStylesheets(paths) {
    for (const link of document.querySelectorAll('link[rel~="stylesheet"]')) {
      const url = new URL(link.href, location.href);
      if (url.origin !== location.origin || !paths.includes(decodeURIComponent(url.pathname))) continue;
      url.searchParams.set("glossary-reload", Date.now());
      const fresh = link.cloneNode();
      fresh.href = url.href;
      const done = () => link.remove();
      fresh.addEventListener("load", done, { once: true });
      fresh.addEventListener("error", done, { once: true });
      link.after(fresh);
    }
  }
  function showErrors(errors) {
    let box = document.getElementById("glossary-build-errors");
    if (!errors || errors.length === 0) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = document.createElement("div");
      box.id = "glossary-build-errors";
      box.setAttribute("role", "alert");
      box.setAttribute("data-glossary-overlay", "");
      // Styled property by property through CSSOM: the pages' Content-Security-Policy refuses style attributes.
      Object.assign(box.style, {
        position: "fixed", left: "0", right: "0", bottom: "0", maxHeight: "60vh", overflow: "auto", zIndex: "2147483647",
        margin: "0", padding: "1rem 1.25rem", background: "#2b0d0d", color: "#ffe9e9", borderTop: "4px solid #e5484d",
        font: "14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace", boxShadow: "0 -4px 24px rgba(0,0,0,.4)",
      });
      document.body.appendChild(box);
    }
    box.textContent = "";
    const title = document.createElement("strong");
    title.textContent = "Build failed \u2014 this is the last good build. Fix the problem and save to reload.";
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "\u00d7";
    close.setAttribute("aria-label", "Hide build errors");
    Object.assign(close.style, {
      float: "right", background: "none", border: "0", color: "inherit", fontSize: "20px", lineHeight: "1", cursor: "pointer",
    });
    close.addEventListener("click", () => box.remove());
    const list = document.createElement("ul");
    Object.assign(list.style, { margin: ".5rem 0 0", paddingLeft: "1.25rem", whiteSpace: "pre-wrap" });
    for (const error of errors) {
      const item = document.createElement("li");
      item.textContent = error.text;
      list.appendChild(item);
    }
    box.append(close, title, list);
  }
  let source = null;
  let retry = null;
  function connect() {
    if (source) source.close();
    source = new EventSource("/_glossary/events");
    source.addEventListener("hello", (event) => {
      const data = JSON.parse(event.data);
      showErrors(data.errors);
      if (!data.build) return;
      if (pageBuild === null) pageBuild = data.build;
      else if (pageBuild !== data.build) reload();
    });
    source.addEventListener("build", (event) => {
      const data = JSON.parse(event.data);
      showErrors(null);
      pageBuild = data.build;
      if (data.css_only) return swapStylesheets(data.changed);
      // Other pages, and the files no page loads, are no part of this page.
      const affects = data.all || data.changed.some((path) => path === here || !(path.endsWith("/") || path.endsWith(".html") || notLoaded.test(path)));
      if (affects || (data.changed.some((path) => path.endsWith("/404.html")))) reload();
    });
    source.addEventListener("failed", (event) => showErrors(JSON.parse(event.data).errors));
    source.onerror = () => {
      // The browser retries by itself while the server is unreachable; once it gives up, try again.
      if (source.readyState === EventSource.CLOSED) {
        clearTimeout(retry);
        retry = setTimeout(connect, 1000);
      }
    };
  }
  connect();
})();
