// Progressive enhancements; every page reads fine without this file.
// 1. Light/dark toggle remembered per reader. 2. Copy buttons on code blocks.
(function () {
  "use strict";
  var root = document.documentElement;
  var stored = null;
  try { stored = localStorage.getItem("theme"); } catch (e) { /* storage disabled */ }
  if (stored === "light" || stored === "dark") root.setAttribute("data-theme", stored);
  document.addEventListener("DOMContentLoaded", function () {
    var toggle = document.querySelector(".theme-toggle");
    if (toggle) {
      toggle.hidden = false;
      toggle.addEventListener("click", function () {
        var dark = root.getAttribute("data-theme") === "dark" ||
          (!root.getAttribute("data-theme") && window.matchMedia("(prefers-color-scheme: dark)").matches);
        var next = dark ? "light" : "dark";
        root.setAttribute("data-theme", next);
        try { localStorage.setItem("theme", next); } catch (e) { /* storage disabled */ }
      });
    }
    var copyLabel = toggle ? toggle.getAttribute("data-copy") : "Copy";
    var copiedLabel = toggle ? toggle.getAttribute("data-copied") : "Copied";
    if (!navigator.clipboard) return;
    document.querySelectorAll("pre.code").forEach(function (pre) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy";
      button.textContent = copyLabel;
      button.addEventListener("click", function () {
        var code = pre.querySelector("code");
        navigator.clipboard.writeText(code ? code.innerText : pre.innerText).then(function () {
          button.textContent = copiedLabel;
          setTimeout(function () { button.textContent = copyLabel; }, 1500);
        });
      });
      pre.appendChild(button);
    });
  });
})();
