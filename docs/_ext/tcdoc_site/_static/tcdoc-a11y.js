// Code that scrolls must be reachable by keyboard (WCAG 2.1.1): a block wider or taller than its
// box gets tabindex="0", so that it takes focus and the arrow keys scroll it. A block that fits
// stays out of the tab order. Checked when the page loads and again when the window is resized.
(function () {
  "use strict";
  var SCROLLING = "pre, div.table-wrapper";

  function update() {
    document.querySelectorAll(SCROLLING).forEach(function (box) {
      var scrolls = box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight;
      if (scrolls) {
        box.setAttribute("tabindex", "0");
      } else if (box.getAttribute("tabindex") === "0") {
        box.removeAttribute("tabindex");
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", update);
  } else {
    update();
  }
  window.addEventListener("resize", update);
})();
