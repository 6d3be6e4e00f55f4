// A copy button in each block of highlighted code; docs/_ext/tcdoc_site/_assets.py says what it
// copies. Prompts are Pygments' .gp spans, but only these: Pygments also takes output lines that
// start with "# " or "(...)" for prompts.
(function () {
  "use strict";
  var PROMPT = /^(>>>|\.\.\.|\$) ?$/;
  var MARK = "\u0001"; // stands for a prompt while the text is split into lines
  var ICON =
    '<svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="18" height="18" fill="none" ' +
    'stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">' +
    '<rect x="8" y="8" width="12" height="12" rx="2"/>' +
    '<path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2"/></svg>';
  var status = null;
  // The words, in the page's language, from the attributes of this script's tag (_assets.py).
  var script = document.currentScript;
  var WORDS = {
    label: (script && script.dataset.label) || "Copy code",
    copied: (script && script.dataset.copied) || "Copied",
    failed: (script && script.dataset.failed) || "Copy failed"
  };

  function codeOf(pre) {
    var copy = pre.cloneNode(true);
    copy.querySelectorAll(".linenos").forEach(function (n) { n.remove(); });
    copy.querySelectorAll(".gp").forEach(function (n) {
      if (PROMPT.test(n.textContent)) n.replaceWith(MARK);
    });
    var text = copy.textContent;
    if (text.indexOf(MARK) !== -1) {
      text = text.split("\n")
        .filter(function (line) { return line.charAt(0) === MARK; })
        .map(function (line) { return line.slice(1); })
        .join("\n");
    }
    return text.replace(/\n$/, "");
  }

  function writeText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    // A page served over plain http has no navigator.clipboard: copy through a selection instead.
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var done = document.execCommand("copy");
    area.remove();
    return done ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function say(button, label) {
    if (!status) {
      status = document.createElement("span");
      status.className = "tcdoc-copy-status";
      status.setAttribute("role", "status");
      document.body.appendChild(status);
    }
    status.textContent = label;
    button.classList.add("copied");
    button.lastChild.textContent = label;
    clearTimeout(button.tcdocTimer);
    button.tcdocTimer = setTimeout(function () {
      button.classList.remove("copied");
      button.lastChild.textContent = "";
      status.textContent = "";
    }, 2000);
  }

  function addButton(pre) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copybtn";
    button.setAttribute("aria-label", WORDS.label);
    button.title = WORDS.label;
    button.innerHTML = ICON + '<span aria-hidden="true"></span>';
    button.addEventListener("click", function () {
      writeText(codeOf(pre)).then(
        function () { say(button, WORDS.copied); },
        function () { say(button, WORDS.failed); }
      );
    });
    pre.after(button);
  }

  function start() {
    document.querySelectorAll("div.highlight pre").forEach(addButton);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
