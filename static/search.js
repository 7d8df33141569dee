// Search, a progressive enhancement: without JavaScript the search button stays hidden and the
// tag index is the way in. theme.js opens the dialog (the button, or "/") and imports this module
// the first time; this module then loads Pagefind's index of the page's language (<html lang>),
// so neither costs a page anything until a reader searches.
// Keys: arrows move between the input and the results, Enter opens one, Esc closes.
var MAX = 8;
// Pages whose text has the query's words spelled exactly as typed (accents included) come
// first; Pagefind matches with and without accents and already leans that way (weight 10).
var RANKED = 24;

function exactFirst(found, query) {
  var words = fold(query).split(/\s+/);
  function exact(page) {
    var text = fold(((page.meta && page.meta.title) || "") + " " + page.content);
    return words.every(function (w) { return text.indexOf(w) >= 0; });
  }
  var yes = [], no = [];
  found.forEach(function (page) { (exact(page) ? yes : no).push(page); });
  return yes.concat(no);
}

function fold(text) { return text.normalize("NFC").toLocaleLowerCase(); }

function setUp(dialog) {
  var input = dialog.querySelector("input");
  var status = dialog.querySelector(".search-status");
  var list = dialog.querySelector(".search-results");
  var loading = null;
  var latest = 0;

  function load() {
    if (!loading) {
      loading = import("/pagefind/" + (document.documentElement.lang || "en") + "/pagefind.js").then(function (pagefind) {
        return pagefind.options({ excerptLength: 24, ranking: { diacriticSimilarity: 10 } }).then(function () { return pagefind; });
      });
      loading.catch(function () { loading = null; });
    }
    return loading;
  }

  function say(key, name, value) {
    var text = dialog.getAttribute("data-" + key) || "";
    status.textContent = name ? text.split("{" + name + "}").join(value) : text;
  }

  function show(found, total, query) {
    list.replaceChildren.apply(list, found.map(function (page) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = page.url;
      var title = document.createElement("span");
      title.className = "search-title";
      title.textContent = (page.meta && page.meta.title) || page.url;
      var excerpt = document.createElement("span");
      excerpt.className = "search-excerpt";
      // Pagefind escapes the page's text and marks the matches with <mark>.
      excerpt.innerHTML = page.excerpt;
      link.append(title, excerpt);
      item.append(link);
      return item;
    }));
    if (total) say("count", "n", String(total)); else say("none", "query", query);
    list.setAttribute("aria-busy", "false");
  }

  function search() {
    var query = input.value.trim();
    var ticket = ++latest;
    if (!query) { list.replaceChildren(); status.textContent = ""; return; }
    list.setAttribute("aria-busy", "true");
    say("loading");
    load()
      .then(function (pagefind) { return pagefind.debouncedSearch(query, {}, 120); })
      .then(function (answer) {
        if (!answer || ticket !== latest) return null;
        return Promise.all(answer.results.slice(0, RANKED).map(function (r) { return r.data(); }))
          .then(function (found) {
            if (ticket === latest) show(exactFirst(found, query).slice(0, MAX), answer.results.length, query);
          });
      })
      .catch(function () {
        if (ticket !== latest) return;
        say("failed");
        list.setAttribute("aria-busy", "false");
      });
  }

  function links() { return Array.prototype.slice.call(list.querySelectorAll("a")); }

  input.addEventListener("input", search);
  input.addEventListener("keydown", function (e) {
    var all = links();
    if (e.key === "ArrowDown" && all.length) { e.preventDefault(); all[0].focus(); }
    if (e.key === "Enter") { e.preventDefault(); if (all.length) all[0].click(); }
  });
  list.addEventListener("keydown", function (e) {
    var all = links();
    var at = all.indexOf(document.activeElement);
    if (at < 0) return;
    if (e.key === "ArrowDown") { e.preventDefault(); all[Math.min(at + 1, all.length - 1)].focus(); }
    if (e.key === "ArrowUp") { e.preventDefault(); if (at === 0) input.focus(); else all[at - 1].focus(); }
  });
  // A click on the backdrop (outside the dialog's box) closes it.
  dialog.addEventListener("click", function (e) { if (e.target === dialog) dialog.close(); });
  load().catch(function () { /* said when searching */ });
  // What the reader typed while this module was loading.
  if (input.value.trim()) search();
}

var dialog = document.getElementById("search");
if (dialog) setUp(dialog);
