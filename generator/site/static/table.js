// The models table: filter, search, sort and count the rows of window.PROVCAT_TABLE (models.js).
// Plain script, no build step. Each row is an array, read by position (generator/site/views.py,
// table_data): provider index, id, name, status, deprecation date, shutdown date, context,
// max output, input, output and cache-read prices (decimal strings), capability bits,
// input- and output-modality bits, page, family and aliases, and (for a model whose vendor
// announced a price change, null otherwise) its periods as [from, until, input, output, cache
// read]: the prices shown are the period in force on the reader's day; then, for a model without
// prices of its own that points to another, the id of the model whose prices it is billed at
// (provcat's priced_as), "" otherwise. Rows are rendered a page at a time,
// so filtering 5,000 models costs a scan of an array and a few hundred rows of HTML.
(function () {
  "use strict";
  var T = window.PROVCAT_TABLE;
  var P = 0, ID = 1, NAME = 2, STATUS = 3, DEP = 4, SHUT = 5, CTX = 6, MAXOUT = 7,
    IN = 8, OUT = 9, CACHE = 10, CAPS = 11, MIN = 12, MOUT = 13, HREF = 14, MORE = 15, SCHED = 16,
    PRICED = 17;
  var PAGE = 100;
  var rows = T.rows;
  var today = new Date();
  var day = today.getFullYear() + "-" + String(today.getMonth() + 1).padStart(2, "0") + "-" +
    String(today.getDate()).padStart(2, "0");
  function asDay(text) { return text.length === 7 ? text + "-01" : text; }
  // the lifecycle on the reader's day: provcat.models.lifecycle.state
  function state(r) {
    if (r[STATUS] === "retired" || (r[SHUT] && asDay(r[SHUT]) <= day)) return "retired";
    if (r[STATUS] === "deprecated" || (r[DEP] && asDay(r[DEP]) <= day)) return "deprecated";
    return r[STATUS] || "active";
  }
  // a schedule's period in force today (from inclusive, until exclusive) fills the price columns
  function pricesToday(r) {
    var found = null;
    r[SCHED].forEach(function (p) {
      if ((!p[0] || p[0] <= day) && (!p[1] || day < p[1])) found = p;
    });
    r[IN] = found ? found[2] : null; r[OUT] = found ? found[3] : null;
    r[CACHE] = found ? found[4] : null;
  }
  var n = rows.length, i;
  var states = new Array(n), hay = new Array(n), nums = {};
  var numeric = { input: IN, output: OUT, cache_read: CACHE };
  for (var k in numeric) nums[k] = new Float64Array(n);
  for (i = 0; i < n; i++) {
    var r = rows[i];
    states[i] = state(r);
    if (r[SCHED]) pricesToday(r);
    // "provider/model" too: the form every model page and model_kwargs write
    hay[i] = (T.providers[r[P]] + "/" + r[ID] + " " + r[NAME] + " " + r[MORE]).toLowerCase();
    for (k in numeric) nums[k][i] = r[numeric[k]] === null ? NaN : Number(r[numeric[k]]);
  }
  function capsText(bits) {
    var out = [];
    for (var c = 0; c < T.capabilities.length; c++) if (bits & (1 << c)) out.push(T.capabilities[c][0]);
    return out.join(" ");
  }
  // each short name with its full name, the capability filter's (`json`: Structured output)
  function capsHtml(bits) {
    var out = [];
    for (var c = 0; c < T.capabilities.length; c++) {
      if (bits & (1 << c)) {
        out.push("<abbr title=\"" + esc(T.capabilities[c][1]) + "\">" + esc(T.capabilities[c][0]) + "</abbr>");
      }
    }
    return out.join(" ");
  }
  var keys = {
    provider: function (a) { return T.providers[rows[a][P]]; },
    // case folded, so `MiniMax-M2` sorts beside `minimax-m2`; ties keep the catalog's order
    model: function (a) { return rows[a][ID].toLowerCase(); },
    status: function (a) { return states[a]; },
    context: function (a) { return rows[a][CTX]; },
    max_output: function (a) { return rows[a][MAXOUT]; },
    input: function (a) { return nums.input[a]; },
    output: function (a) { return nums.output[a]; },
    cache_read: function (a) { return nums.cache_read[a]; },
    capabilities: function (a) { return capsText(rows[a][CAPS]); }
  };
  var ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  function esc(text) { return String(text).replace(/[&<>"']/g, function (c) { return ESC[c]; }); }
  function num(v) { return v === null || v === undefined ? "" : Number(v).toLocaleString("en-US"); }
  // at least two decimals (`10` is `10.00`, `0.5` is `0.50`), so a column's points line up;
  // every digit the catalog gives is kept (every other page's prices are written the same way,
  // by the pages' price filter: generator/site/prices.py, price())
  function price(v) {
    if (v === null || v === undefined) return "";
    var s = String(v), dot = s.indexOf(".");
    if (/[^0-9.]/.test(s)) return esc(s);
    return esc(dot < 0 ? s + ".00" : s.length - dot === 2 ? s + "0" : s);
  }

  var $ = function (id) { return document.getElementById(id); };
  var body = $("rows"), count = $("count"), more = $("more"), form = $("filters");
  var sortKey = null, sortDir = 1, shown = PAGE, matching = [];

  // each column's sort keys, made on its first sort: a sort then compares array entries
  var sortKeys = {};
  function keysOf(key) {
    var found = sortKeys[key];
    if (!found) {
      var get = keys[key];
      found = new Array(n);
      for (var j = 0; j < n; j++) {
        var v = get(j);
        found[j] = v === null || v === undefined || v === "" || v !== v ? null : v;
      }
      sortKeys[key] = found;
    }
    return found;
  }
  // every model's position in each column's order (both directions, empty cells last), made
  // on the column's first sort: a filter then walks it, so no filter or sort sorts again
  var orders = {};
  function orderOf(key, dir) {
    var name = key + dir, found = orders[name];
    if (!found) {
      var k = keysOf(key);
      found = new Array(n);
      for (var j = 0; j < n; j++) found[j] = j;
      found.sort(function (a, b) {
        var x = k[a], y = k[b];
        if (x === null || y === null) return x === y ? a - b : (x === null ? 1 : -1);
        if (x < y) return -dir;
        if (x > y) return dir;
        return a - b;
      });
      orders[name] = found;
    }
    return found;
  }
  // the rows the filters keep, in the sort's order
  function select() {
    var q = $("q").value.trim().toLowerCase();
    var prov = $("f-provider").value, status = $("f-status").value;
    var cap = $("f-capability").value, mod = $("f-modality").value;
    var maxIn = $("f-max-input").value === "" ? null : Number($("f-max-input").value);
    var maxOut = $("f-max-output").value === "" ? null : Number($("f-max-output").value);
    var capBit = cap === "" ? 0 : 1 << Number(cap);
    var modCol = mod === "" ? 0 : (mod.charAt(0) === "i" ? MIN : MOUT);
    var modBit = mod === "" ? 0 : 1 << Number(mod.split(":")[1]);
    var provIndex = prov === "" ? -1 : Number(prov);
    var found = [], order = sortKey ? orderOf(sortKey, sortDir) : null;
    for (var i = 0; i < n; i++) {
      var j = order ? order[i] : i, r = rows[j];
      if (provIndex >= 0 && r[P] !== provIndex) continue;
      if (status && states[j] !== status) continue;
      if (capBit && !(r[CAPS] & capBit)) continue;
      if (modBit && !(r[modCol] & modBit)) continue;
      if (maxIn !== null && !(nums.input[j] <= maxIn)) continue;
      if (maxOut !== null && !(nums.output[j] <= maxOut)) continue;
      if (q && hay[j].indexOf(q) < 0) continue;
      found.push(j);
    }
    matching = found;
  }
  function filter() {
    select();
    shown = PAGE;
    render(0);
    save();
  }
  // the search, the filters and the sort live in the address (`?q=mini&provider=openai&
  // sort=-input`), by name, not by position: a link shares them, and Back finds them again
  var FIELDS = [["q", "q"], ["provider", "f-provider"], ["status", "f-status"],
    ["capability", "f-capability"], ["modality", "f-modality"], ["max_input", "f-max-input"],
    ["max_output", "f-max-output"]];
  function named(field, value) {
    if (field === "provider") return T.providers[Number(value)];
    if (field === "capability") return T.capabilities[Number(value)][0];
    if (field === "modality") return value.split(":")[0] + ":" + T.modalities[Number(value.split(":")[1])];
    return value;
  }
  function unnamed(field, text) {  // the control's value for a name; null for an unknown one
    var found = -1, c;
    if (field === "provider") found = T.providers.indexOf(text);
    else if (field === "capability") {
      for (c = 0; c < T.capabilities.length; c++) if (T.capabilities[c][0] === text) found = c;
    } else if (field === "modality") {
      var way = text.split(":")[0], index = T.modalities.indexOf(text.slice(way.length + 1));
      return (way === "in" || way === "out") && index >= 0 ? way + ":" + index : null;
    } else return text;
    return found >= 0 ? String(found) : null;
  }
  function save() {
    var params = new URLSearchParams();
    FIELDS.forEach(function (f) {
      var value = $(f[1]).value;
      if (value !== "") params.set(f[0], named(f[0], value));
    });
    if (sortKey) params.set("sort", (sortDir < 0 ? "-" : "") + sortKey);
    var query = params.toString();
    try {
      history.replaceState(null, "", (query ? "?" + query : location.pathname) + location.hash);
    } catch (e) { /* an address this page may not rewrite: the state stays on the page */ }
  }
  function restore() {
    var params = new URLSearchParams(location.search);
    FIELDS.forEach(function (f) {
      var text = params.get(f[0]), value = text === null ? null : unnamed(f[0], text);
      var box = $(f[1]);
      if (value === null) return;
      // a choice only when the list has it (else the box would show a blank), a number only
      // when it is one
      if (box.tagName === "SELECT" ? [].some.call(box.options, function (o) { return o.value === value; })
          : box.type !== "number" || (value.trim() !== "" && !isNaN(Number(value)))) box.value = value;
    });
    var sort = params.get("sort") || "", dir = sort.charAt(0) === "-" ? -1 : 1;
    Array.prototype.forEach.call(heads, function (th) {
      if (th.getAttribute("data-key") === sort.replace(/^-/, "")) {
        sortKey = sort.replace(/^-/, "");
        sortDir = dir;
        th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
      }
    });
  }
  // the rows from `from` on are written (0: the whole table anew; "show more" appends, so a
  // click costs its own rows, not every row shown so far)
  function render(from) {
    var html = [], end = Math.min(shown, matching.length);
    for (var j = from; j < end; j++) {
      var a = matching[j], r = rows[a];
      var priced = r[PRICED] ? "<td class=\"num\" title=\"priced as " + esc(r[PRICED]) + "\">" : "<td class=\"num\">";
      html.push("<tr><td>" + esc(T.providers[r[P]]) + "</td><td><a href=\"" + esc(r[HREF]) + "\">" +
        esc(r[ID]) + "</a>" + (r[NAME] ? "<br><small>" + esc(r[NAME]) + "</small>" : "") +
        "</td><td class=\"st-" + states[a] + "\">" + states[a] + (r[SHUT] ? "<br><small>shutdown " +
        esc(r[SHUT]) + "</small>" : "") + "</td><td class=\"num\">" + num(r[CTX]) +
        "</td><td class=\"num\">" + num(r[MAXOUT]) + "</td>" + priced + price(r[IN]) +
        "</td>" + priced + price(r[OUT]) + "</td>" + priced + price(r[CACHE]) +
        "</td><td>" + capsHtml(r[CAPS]) + "</td></tr>");
    }
    var total = matching.length;
    if (from > 0) body.insertAdjacentHTML("beforeend", html.join(""));
    else if (total === 0) {
      body.innerHTML = "<tr class=\"empty\"><td colspan=\"9\">No model matches: loosen a " +
        "filter, or choose Clear.</td></tr>";
    } else body.innerHTML = html.join("");
    count.textContent = (total === n ? n.toLocaleString("en-US") + " models" :
      total.toLocaleString("en-US") + " of " + n.toLocaleString("en-US") + " models") +
      (end < total ? " (showing the first " + end.toLocaleString("en-US") + ")" : "");
    more.hidden = end >= total;
    more.textContent = "Show " + Math.min(PAGE, total - end).toLocaleString("en-US") + " more";
  }
  var heads = document.querySelectorAll("#models th[data-key]");
  Array.prototype.forEach.call(heads, function (th) {
    th.querySelector("button").addEventListener("click", function () {
      var key = th.getAttribute("data-key");
      sortDir = sortKey === key ? -sortDir : 1;
      sortKey = key;
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", sortDir > 0 ? "ascending" : "descending");
      select();
      render(0);
      save();
    });
  });
  // "show more" takes the keyboard on to the first row it shows (its model's link), and the
  // button hides once every row is shown
  more.addEventListener("click", function () {
    var first = shown;
    shown += PAGE;
    render(first);
    var row = body.rows[first];
    if (row) row.querySelector("a").focus();
  });
  form.addEventListener("input", filter);
  form.addEventListener("change", filter);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  form.addEventListener("reset", function () { setTimeout(filter, 0); });
  restore();
  filter();
  // shown once they work: without JavaScript the page says where the models are instead
  form.hidden = false;
  $("rows-box").hidden = false;
  document.documentElement.setAttribute("data-ready", "1");
})();
