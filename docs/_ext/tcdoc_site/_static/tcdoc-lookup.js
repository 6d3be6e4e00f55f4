// The lookup page: an operation as a reader writes it, a kind of x and a grad mode give one answer
// card. The data is the build's matrix, written by docs/_ext/tcdoc_site/_lookup.py into
// tcdoc-lookup-data.js, which sets window.TCDOC_LOOKUP; that module says what each key holds.
// The keys of a spelling are made here exactly as exact_key, loose_key and bare_key make them there.
(function () {
  "use strict";
  var D = window.TCDOC_LOOKUP;
  var form = document.getElementById("tcdoc-lookup");
  var card = document.getElementById("tcdoc-lookup-card");
  if (!D || !form || !card) return;
  var input = document.getElementById("tcdoc-lookup-op");
  var xSelect = document.getElementById("tcdoc-lookup-x");
  var modeSelect = document.getElementById("tcdoc-lookup-mode");
  var S = D.s;
  var PREFIXES = ["torch.", "copy.", "x.", "."];
  var WIDE = { "\uff08": "(", "\uff09": ")", "\u201c": '"', "\u201d": '"', "'": '"', "\u3002": "." };

  function word(key) { return S[D.t[key]]; }

  function exactKey(text) {
    var wide = text.replace(/[\uff08\uff09\u201c\u201d'\u3002]/g, function (c) { return WIDE[c]; });
    return wide.replace(/\s+/g, "").toLowerCase();
  }

  function looseKey(text) {
    var key = exactKey(text);
    var stripped = true;
    while (stripped) {
      stripped = false;
      if (key.indexOf("x[") === 0) { key = key.slice(1); stripped = true; }
      PREFIXES.forEach(function (prefix) {
        if (key.indexOf(prefix) === 0) { key = key.slice(prefix.length); stripped = true; }
      });
    }
    return key.replace(/\((x)?\)$/, "");
  }

  function bareKey(text) { return looseKey(text).replace(/\(.*\)$/, ""); }

  function resolve(text) {
    var tries = [["exact", exactKey(text)], ["loose", looseKey(text)], ["bare", bareKey(text)]];
    for (var i = 0; i < tries.length; i++) {
      var key = tries[i][1];
      if (key && Object.prototype.hasOwnProperty.call(D.k[tries[i][0]], key)) return D.k[tries[i][0]][key];
    }
    return null;
  }

  function distance(a, b) {
    var row = [];
    for (var j = 0; j <= b.length; j++) row.push(j);
    for (var i = 1; i <= a.length; i++) {
      var diagonal = row[0];
      row[0] = i;
      for (var k = 1; k <= b.length; k++) {
        var above = row[k];
        row[k] = Math.min(row[k] + 1, row[k - 1] + 1, diagonal + (a[i - 1] === b[k - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length];
  }

  // The three operations whose name or code is nearest to what was typed.
  function nearest(text) {
    var key = looseKey(text);
    var scored = D.o.map(function (op) {
      var best = Math.min(distance(key, looseKey(op[0])), distance(key, looseKey(op[1])));
      if (key && (looseKey(op[1]).indexOf(key) !== -1 || looseKey(op[0]).indexOf(key) !== -1)) best = 0;
      return [best, op];
    });
    scored.sort(function (a, b) { return a[0] - b[0]; });
    return scored.slice(0, 3).map(function (item) { return item[1]; });
  }

  function indexOf(list, name) {
    for (var i = 0; i < list.length; i++) if (list[i][0] === name) return i;
    return -1;
  }

  function findScenario(text) {
    var at = indexOf(D.x, text);
    if (at !== -1 || !text) return at;
    var lower = text.toLowerCase();
    for (var i = 0; i < D.x.length; i++) if (S[D.x[i][1]].toLowerCase().indexOf(lower) !== -1) return i;
    return -1;
  }

  function findMode(text) {
    var key = looseKey(text || "");
    for (var i = 0; i < D.m.length; i++) {
      if (D.m[i][0] === key || looseKey(S[D.m[i][1]]) === key) return i;
      if (key && D.m[i][0].indexOf(key) === 0) return i;
    }
    return -1;
  }

  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function filled(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? values[name] : all;
    });
  }

  function verbatim(text) {
    var pre = element("pre", null, "tcdoc-lookup-message");
    pre.appendChild(element("code", text));
    return pre;
  }

  function definitions(pairs, codeTerms) {
    var list = element("dl", null, "tcdoc-lookup-answers");
    pairs.forEach(function (pair) {
      var group = element("div");
      var term = element("dt");
      if (codeTerms) term.appendChild(element("code", pair[0])); else term.textContent = pair[0];
      group.appendChild(term);
      group.appendChild(element("dd", pair[1]));
      list.appendChild(group);
    });
    return list;
  }

  function links(op) {
    var paragraph = element("p", null, "tcdoc-lookup-links");
    [[op[3], "row"], [op[4], "explains"], [op[5], "example"]].forEach(function (link) {
      if (!link[0]) return;
      var anchor = element("a", word(link[1]));
      anchor.href = link[0];
      paragraph.appendChild(anchor);
    });
    return paragraph;
  }

  function showCard(opIndex, xIndex, modeIndex) {
    var op = D.o[opIndex];
    var c = D.c[D.r[opIndex][modeIndex][xIndex]];
    var nodes = [];
    var title = element("h2");
    title.appendChild(element("code", op[1]));
    nodes.push(title, element("p", S[op[2]]));
    nodes.push(element("p", filled(word("x"), { summary: S[D.x[xIndex][1]] })));
    nodes.push(element("p", filled(word("mode"), { mode: S[D.m[modeIndex][1]] })));
    if (c[6] !== -1) {
      nodes.push(element("p", word("raises")), verbatim(S[c[6]]));
    } else if (c[7] !== -1) {
      nodes.push(element("p", word("not_run")), element("p", S[c[7]]));
    } else {
      nodes.push(element("h3", word("answers")));
      nodes.push(definitions(["q_new_object", "q_metadata", "q_memory", "q_history"].map(function (q, i) {
        return [word(q), S[c[i]]];
      }), false));
      var writes = [];
      for (var w = 0; w < c[4].length; w += 2) writes.push([S[c[4][w]], S[c[4][w + 1]]]);
      nodes.push(element("h3", word("writes")), definitions(writes, true));
    }
    nodes.push(element("h3", word("warnings")));
    if (c[5].length) c[5].forEach(function (i) { nodes.push(verbatim(S[i])); });
    else nodes.push(element("p", word("no_warnings")));
    if (D.v.length) {
      nodes.push(element("h3", word("releases")));
      if (c[8].length) {
        var list = element("ul");
        c[8].forEach(function (i) { list.appendChild(element("li", S[i])); });
        nodes.push(list);
      } else {
        nodes.push(element("p", filled(word("same"), { releases: D.v.join(", ") })));
      }
    }
    nodes.push(links(op));
    card.replaceChildren.apply(card, nodes);
    card.dataset.op = op[0];
    card.dataset.x = D.x[xIndex][0];
    card.dataset.mode = D.m[modeIndex][0];
  }

  function showNearest(text) {
    var nodes = [element("p", filled(word("unknown"), { text: "\u201c" + text + "\u201d" }))];
    var list = element("ul", null, "tcdoc-lookup-nearest");
    nearest(text).forEach(function (op) {
      var item = element("li");
      var button = element("button", null, "tcdoc-lookup-suggestion");
      button.type = "button";
      button.appendChild(element("code", op[1]));
      button.addEventListener("click", function () {
        input.value = op[1];
        lookUp();
        input.focus();
      });
      item.appendChild(button);
      list.appendChild(item);
    });
    nodes.push(list);
    card.replaceChildren.apply(card, nodes);
    card.dataset.op = "";
  }

  function remember(params) {
    var query = params.toString();
    try {
      history.replaceState(null, "", "?" + query + location.hash.replace(/^#op=.*$/, ""));
    } catch (error) {
      location.hash = query; // a file:// page may not change its query: the hash holds it
    }
  }

  function lookUp() {
    var text = input.value.trim();
    var params = new URLSearchParams();
    var x = D.x[xSelect.selectedIndex][0];
    var mode = D.m[modeSelect.selectedIndex][0];
    if (!text) {
      card.replaceChildren(element("p", word("empty")));
      return;
    }
    var name = resolve(text);
    params.set("op", name || text);
    params.set("x", x);
    params.set("mode", mode);
    remember(params);
    if (name === null) showNearest(text);
    else showCard(indexOf(D.o, name), xSelect.selectedIndex, modeSelect.selectedIndex);
  }

  function option(value, text) {
    var node = element("option", text);
    node.value = value;
    return node;
  }

  function start() {
    D.o.forEach(function (op) { document.getElementById("tcdoc-lookup-ops").appendChild(option(op[1], S[op[2]])); });
    D.x.forEach(function (x) { xSelect.appendChild(option(x[0], S[x[1]])); });
    D.m.forEach(function (m) { modeSelect.appendChild(option(m[0], S[m[1]])); });
    var hash = location.hash.replace(/^#/, "");
    var params = new URLSearchParams(location.search || (hash.indexOf("op=") === 0 ? hash : ""));
    var xIndex = findScenario(params.get("x") || "");
    var modeIndex = findMode(params.get("mode") || "");
    xSelect.selectedIndex = xIndex === -1 ? 0 : xIndex;
    modeSelect.selectedIndex = modeIndex === -1 ? 0 : modeIndex;
    var op = params.get("op");
    if (op) {
      var at = indexOf(D.o, op);
      input.value = at === -1 ? op : D.o[at][1];
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      lookUp();
    });
    xSelect.addEventListener("change", function () { if (input.value.trim()) lookUp(); });
    modeSelect.addEventListener("change", function () { if (input.value.trim()) lookUp(); });
    form.hidden = false;
    if (input.value) lookUp();
    else card.replaceChildren(element("p", word("empty")));
  }

  start();
})();
