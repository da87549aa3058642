// bakefs dev: reloads the page when a new build is served and shows the
// errors of a failed build over the page. Injected into HTML in dev only.
(() => {
  "use strict";
  const me = document.currentScript;
  const loaded = Number(me && me.dataset.generation);
  const events = (me && me.dataset.events) || "/_bakefs/dev/events";
  let overlay = null;

  function show(text) {
    if (!overlay) {
      overlay = document.createElement("div");
      overlay.id = "bakefs-dev-overlay";
      overlay.setAttribute("role", "alert");
      Object.assign(overlay.style, {
        position: "fixed", inset: "0", zIndex: "2147483647", overflow: "auto",
        background: "rgba(20, 20, 24, 0.92)", color: "#f4f4f5",
        font: "14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
        padding: "2rem",
      });
      const title = document.createElement("div");
      title.textContent = "bakefs dev: build failed";
      Object.assign(title.style, { color: "#ff6b6b", fontWeight: "bold", marginBottom: "1rem" });
      const pre = document.createElement("pre");
      Object.assign(pre.style, { margin: "0", whiteSpace: "pre-wrap" });
      const note = document.createElement("div");
      note.textContent = "The page still shows the last good build. Fix the file and save: the page reloads.";
      Object.assign(note.style, { color: "#a1a1aa", marginTop: "1rem" });
      overlay.append(title, pre, note);
      (document.body || document.documentElement).append(overlay);
    }
    overlay.querySelector("pre").textContent = text;
  }

  function hide() {
    if (overlay) {
      overlay.remove();
      overlay = null;
    }
  }

  const source = new EventSource(events);
  source.addEventListener("state", (e) => {
    const st = JSON.parse(e.data);
    if (st.error) {
      show(st.error);
    } else if (st.generation !== loaded) {
      source.close();
      location.reload();
    } else {
      hide();
    }
  });
})();
