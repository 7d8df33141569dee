// Search, a progressive enhancement: without JavaScript the search button stays hidden and the
// tag index is the way in. theme.js opens the dialog (the button, or "/") and imports this module
// the first time; this module then loads the index of the page's language (<html lang>) from
// search/<lang>/ beside this file (made by the generator, src/search/), so neither costs a page
// anything until a reader searches. On a site published under a path (/blog/), the index and
// the results' addresses (site paths, /a/) are under it too: both are read against SITE.
// Only the chunks holding the query's words and the bundles of texts of the results shown are
// fetched.
// Keys: arrows move between the input and the results, Enter opens one, Esc closes.
var MAX = 8;
// Query words considered, chunks fetched for one word's prefix matches, words in an excerpt.
var WORDS = 6;
var CHUNKS = 4;
var EXCERPT = 24;
var DEBOUNCE = 120;
// Results of a query of several words looked at for the words side by side.
var PHRASE = 16;
// The site's root, where this file is: https://host/ or https://host/blog/.
var SITE = new URL("./", import.meta.url);

// The generator's rules (src/search/words.rs): a word is letters, digits and combining marks;
// it is looked up lower-cased and folded (accents dropped, đ as d); its spelling as typed
// (lower-cased, composed) ranks the pages that spell it so first.
var WORD = /[\p{Alphabetic}\p{N}\p{M}]+/gu;
function spelling(word) { return word.toLowerCase().normalize("NFC"); }
function fold(word) { return word.normalize("NFD").replace(/\p{M}/gu, "").replace(/đ/g, "d"); }

// English queries also find other forms of a word: `measuring` finds `measured`.
var SUFFIXES = ["ations", "ation", "ings", "ing", "edly", "ed", "ers", "er", "ies", "es", "s", "ly"];
function stem(key, lang) {
  if (lang.slice(0, 2) !== "en") return key;
  for (var i = 0; i < SUFFIXES.length; i++) {
    var s = SUFFIXES[i];
    if (key.length - s.length >= 4 && key.slice(-s.length) === s) return key.slice(0, -s.length);
  }
  return key;
}

// The query's words; the last one, maybe still being typed, also matches the words it begins.
function terms(query, lang) {
  var seen = {};
  var ts = (query.match(WORD) || []).map(function (w) {
    var sp = spelling(w);
    var key = fold(sp);
    return { spelling: sp, key: key, accented: sp !== key, stem: stem(key, lang), last: false };
  }).filter(function (t) {
    if (seen[t.spelling]) return false;
    seen[t.spelling] = true;
    return true;
  }).slice(0, WORDS);
  if (ts.length) ts[ts.length - 1].last = true;
  return ts;
}

// How well a word of the index (folded key k, spelling s) answers term t: 0 when it does not.
// A query with accents wants its own spelling (other spellings weigh less), also as a prefix.
function likeness(t, k, s) {
  var spelled = !t.accented || s === t.spelling;
  if (k === t.key) return spelled ? 1 : 0.3;
  if (t.last && t.key.length >= 2 && k.slice(0, t.key.length) === t.key &&
      (!t.accented || s.slice(0, t.spelling.length) === t.spelling)) return 0.5;
  if (t.stem !== t.key && k.slice(0, t.stem.length) === t.stem) return 0.4;
  return 0;
}

// Whether the words of `text` hold the terms side by side, in the query's order.
function phrase(text, ts) {
  var words = text.match(WORD) || [];
  for (var i = 0; i + ts.length <= words.length; i++) {
    var all = true;
    for (var j = 0; j < ts.length && all; j++) {
      var sp = spelling(words[i + j]);
      all = likeness(ts[j], fold(sp), sp) > 0;
    }
    if (all) return true;
  }
  return false;
}

function Index(base) {
  this.base = base;
  this.files = {};
  this.entry = this.json("index.json");
}

Index.prototype.json = function (name) {
  if (!this.files[name]) {
    var files = this.files;
    files[name] = fetch(this.base + name).then(function (r) {
      if (!r.ok) throw new Error(name + ": " + r.status);
      return r.json();
    });
    files[name].catch(function () { delete files[name]; });
  }
  return this.files[name];
};

// The chunks that may hold the term's word or words starting with it (its own first).
Index.prototype.chunksFor = function (entry, t) {
  var from = t.stem < t.key ? t.stem : t.key;
  var exact = t.stem === t.key && (!t.last || t.key.length < 2);
  return entry.chunks.filter(function (c) {
    return exact ? c[0] <= t.key && t.key <= c[1] : c[1] >= from && c[0] <= from + "\uffff";
  }).slice(0, CHUNKS).map(function (c) { return c[2]; });
};

// page number → { score, exact } for one term.
Index.prototype.match = function (entry, t) {
  var self = this;
  return Promise.all(this.chunksFor(entry, t).map(function (name) { return self.json(name); }))
    .then(function (chunks) {
      var found = new Map();
      chunks.forEach(function (chunk) {
        Object.keys(chunk).forEach(function (k) {
          var spellings = chunk[k];
          Object.keys(spellings).forEach(function (s) {
            var like = likeness(t, k, s);
            if (!like) return;
            var exact = like === 1;
            var postings = spellings[s];
            for (var i = 0; i < postings.length; i += 2) {
              var score = postings[i + 1] * like;
              var was = found.get(postings[i]);
              if (!was) found.set(postings[i], { score: score, exact: exact });
              else {
                was.score = Math.max(was.score, score);
                was.exact = was.exact || exact;
              }
            }
          });
        });
      });
      return found;
    });
};

// The pages having every term, best first: those with every word spelled as typed, then by
// score. Answers { entry, pages: [{ id, score, exact }] }.
Index.prototype.search = function (ts) {
  var self = this;
  return this.entry.then(function (entry) {
    return Promise.all(ts.map(function (t) { return self.match(entry, t); })).then(function (each) {
      var pages = [];
      each[0].forEach(function (first, id) {
        var score = 0, exact = true;
        for (var i = 0; i < each.length; i++) {
          var m = each[i].get(id);
          if (!m) return;
          score += m.score;
          exact = exact && m.exact;
        }
        pages.push({ id: id, score: score, exact: exact });
      });
      pages.sort(function (a, b) { return (b.exact - a.exact) || (b.score - a.score) || (a.id - b.id); });
      return { entry: entry, pages: pages };
    });
  });
};

// The fragment of page `id`, from the bundle of consecutive pages that holds it (entry.bundles:
// how many pages each holds).
Index.prototype.fragment = function (entry, id) {
  var b = 0, first = 0;
  while (b < entry.bundles.length && id >= first + entry.bundles[b]) first += entry.bundles[b++];
  return this.json("f/" + entry.set + "/" + b + ".json").then(function (bundle) {
    return bundle[id - first];
  });
};

// The part of `text` around the most matches, as nodes with the matching words in <mark>.
function excerpt(text, ts) {
  var words = Array.from(text.matchAll(WORD));
  // For each word, the first term it answers (-1: none) and how well.
  var like = [];
  var term = words.map(function (m, i) {
    var sp = spelling(m[0]);
    var k = fold(sp);
    for (var t = 0; t < ts.length; t++) {
      like[i] = likeness(ts[t], k, sp);
      if (like[i] > 0) return t;
    }
    return -1;
  });
  var hit = term.map(function (t) { return t >= 0; });
  // The window with the most of the query's words, then the terms side by side, then the most
  // and best hits (the spelling typed before other spellings).
  var best = 0, most = -1;
  term.forEach(function (t, i) {
    if (t < 0) return;
    var distinct = {}, n = 0, together = 0;
    for (var j = i; j < Math.min(i + EXCERPT, term.length); j++) {
      if (term[j] < 0) continue;
      n += like[j];
      distinct[term[j]] = true;
      if (j > i && term[j - 1] === term[j] - 1) together++;
    }
    var value = Object.keys(distinct).length * 10000 + together * 100 + n;
    if (value > most) { most = value; best = i; }
  });
  var from = Math.max(0, best - 3);
  var to = Math.min(words.length, from + EXCERPT);
  var nodes = [];
  var at = from ? words[from].index : 0;
  if (from) nodes.push(document.createTextNode("… "));
  for (var i = from; i < to; i++) {
    var m = words[i];
    nodes.push(document.createTextNode(text.slice(at, m.index)));
    if (hit[i]) {
      var mark = document.createElement("mark");
      mark.textContent = m[0];
      nodes.push(mark);
    } else nodes.push(document.createTextNode(m[0]));
    at = m.index + m[0].length;
  }
  nodes.push(document.createTextNode(to < words.length ? " …" : text.slice(at)));
  return nodes;
}

function setUp(dialog) {
  var input = dialog.querySelector("input");
  var status = dialog.querySelector(".search-status");
  var list = dialog.querySelector(".search-results");
  var lang = document.documentElement.lang || "en";
  var index = null;
  var latest = 0;
  var timer = 0;

  function load() {
    if (!index) {
      index = new Index(new URL("search/" + lang + "/", SITE).href);
      index.entry.catch(function () { index = null; });
    }
    return index;
  }

  function say(key, name, value) {
    var text = dialog.getAttribute("data-" + key) || "";
    status.textContent = name ? text.split("{" + name + "}").join(value) : text;
  }

  function show(found, total, query, ts) {
    list.replaceChildren.apply(list, found.map(function (page) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = new URL("." + page.url, SITE).href;
      var title = document.createElement("span");
      title.className = "search-title";
      title.textContent = page.title || page.url;
      var text = document.createElement("span");
      text.className = "search-excerpt";
      text.append.apply(text, excerpt(page.text || "", ts));
      link.append(title, text);
      item.append(link);
      return item;
    }));
    if (total) say("count", "n", String(total)); else say("none", "query", query);
    list.setAttribute("aria-busy", "false");
  }

  function failed(ticket) {
    if (ticket !== latest) return;
    say("failed");
    list.setAttribute("aria-busy", "false");
  }

  function search() {
    var query = input.value.trim();
    var ticket = ++latest;
    clearTimeout(timer);
    var ts = terms(query, lang);
    if (!query) { list.replaceChildren(); status.textContent = ""; return; }
    list.setAttribute("aria-busy", "true");
    say("loading");
    if (!ts.length) { show([], 0, query, ts); return; }
    timer = setTimeout(function () {
      var idx = load();
      idx.search(ts)
        .then(function (answer) {
          if (ticket !== latest) return null;
          // With several words, the best few are looked at again: those where the words
          // stand together (`bắt tay`, a handshake, not `bắt` here and `tay` there) go first.
          var head = answer.pages.slice(0, ts.length > 1 ? PHRASE : MAX);
          return Promise.all(head.map(function (p) { return idx.fragment(answer.entry, p.id); }))
            .then(function (found) {
              if (ticket !== latest) return;
              if (ts.length > 1) {
                var together = found.map(function (f, i) { return { f: f, i: i, p: phrase(f.text || "", ts) }; });
                together.sort(function (a, b) { return (b.p - a.p) || (a.i - b.i); });
                found = together.map(function (x) { return x.f; });
              }
              show(found.slice(0, MAX), answer.pages.length, query, ts);
            });
        })
        .catch(function () { failed(ticket); });
    }, DEBOUNCE);
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
  load();
  // What the reader typed while this module was loading.
  if (input.value.trim()) search();
}

var dialog = document.getElementById("search");
if (dialog) setUp(dialog);
