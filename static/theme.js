// Progressive enhancements; every page reads fine without this file.
// 1. Light/dark toggle remembered per reader (base.html applies the stored choice before the
// first paint). 2. Measured values' tooltips by keyboard too. 3. The search dialog, whose code
// (search.js) is fetched on first use. 4. Copy buttons on code blocks.
(function () {
  "use strict";
  var root = document.documentElement;
  // search.js sits beside this file: on a site published under a path (/blog/) it is
  // /blog/search.js, which the page's <script src> already says.
  var here = document.currentScript ? document.currentScript.src : location.href;
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
    // Measured values and checked claims: the tooltip (spread, n, where and when) for keyboard
    // and screen readers.
    // Where it was measured is the page's --w<n> (a CSS string) that the stylesheet gives it.
    // Every style is read before the first change to the page: a read after a change makes the
    // browser recompute the styles of the whole page, once per value (a long task on a page of
    // hundreds of values).
    var values = Array.prototype.map.call(document.querySelectorAll("data[title], .claim[title]"), function (value) {
      var text = value.title;
      var where = getComputedStyle(value).getPropertyValue("--w").trim();
      if (where) text = (text ? text + " " : "") + where.slice(1, -1).replace(/\\(.)/g, "$1");
      return [value, text];
    });
    values.forEach(function (pair, i) {
      var value = pair[0], text = pair[1];
      var tip = document.createElement("span");
      tip.id = "measured-tip-" + i;
      tip.hidden = true;
      tip.textContent = text;
      value.setAttribute("data-tip", text);
      value.setAttribute("aria-describedby", tip.id);
      value.removeAttribute("title");
      value.after(tip);
    });
    // The button and "/" open the search; search.js, imported the first time, does the rest.
    var dialog = document.getElementById("search");
    var opener = document.querySelector(".search-open");
    if (dialog && opener && typeof dialog.showModal === "function") {
      var searching = null;
      var openSearch = function () {
        var input = dialog.querySelector("input");
        if (!dialog.open) dialog.showModal();
        input.focus();
        input.select();
        if (!searching) {
          searching = import(new URL("search.js", here).href);
          searching.catch(function () { searching = null; });
        }
      };
      opener.hidden = false;
      opener.addEventListener("click", openSearch);
      document.addEventListener("keydown", function (e) {
        if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || dialog.open) return;
        var t = e.target;
        if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
        e.preventDefault();
        openSearch();
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
