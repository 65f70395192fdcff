// A model page's cost calculator: provcat.models.cost.estimate_cost's rules, step by step, in
// exact decimals (BigInt), so the page gives estimate_cost's figure to the last digit. Prices
// come from the page's #prices-data (catalog.json's record of the model): one block, or the
// periods of a schedule (from inclusive, until exclusive) of which the chosen day picks one.
// Fees (provcat.models.fees) are lines of their own: price x count / per.
(function () {
  "use strict";
  var FIELDS = ["input_tokens", "cache_write_tokens", "cache_read_tokens", "output_tokens",
    "input_audio_tokens", "cache_audio_read_tokens", "output_audio_tokens",
    "cache_write_1h_tokens", "reasoning_tokens", "citation_tokens"];
  var PRICE_FIELDS = ["input", "output", "cache_read", "cache_write", "cache_write_1h",
    "input_audio", "cache_read_audio", "output_audio", "reasoning", "citation"];
  var PARTS = [["input", "Input"], ["cache_read", "Cache read"], ["cache_write", "Cache write"],
    ["input_audio", "Audio input"], ["output", "Output"], ["reasoning", "Reasoning"],
    ["citation", "Citation"], ["output_audio", "Audio output"]];
  // the counts beyond input, output and the cache that `provcat cost` takes, and its flags
  var PARTS_FLAGS = [["cache_write_1h_tokens", "cache-write-1h"],
    ["input_audio_tokens", "input-audio"], ["cache_audio_read_tokens", "cached-audio"],
    ["output_audio_tokens", "output-audio"], ["reasoning_tokens", "reasoning"],
    ["citation_tokens", "citation"]];

  // an exact decimal: i x 10^-s
  function dec(text) {
    var dot = text.indexOf(".");
    if (dot < 0) return { i: BigInt(text), s: 0 };
    return { i: BigInt(text.slice(0, dot) + text.slice(dot + 1)), s: text.length - dot - 1 };
  }
  var ZERO = { i: 0n, s: 0 }, ONE = { i: 1n, s: 0 };
  function neg(a) { return { i: -a.i, s: a.s }; }
  function mul(a, b) { return { i: a.i * b.i, s: a.s + b.s }; }
  // a / n for a whole n > 0: exact when n is a power of ten (per 1,000), else to 40 places
  function div(a, n) {
    var digits = n.toString();
    if (/^10*$/.test(digits)) return { i: a.i, s: a.s + digits.length - 1 };
    return { i: a.i * 10n ** 40n / n, s: a.s + 40 };
  }
  function add(a, b) {
    var s = Math.max(a.s, b.s);
    return { i: a.i * 10n ** BigInt(s - a.s) + b.i * 10n ** BigInt(s - b.s), s: s };
  }
  // tokens x price per million (cost.py's _mtok): zero tokens cost zero whatever the price
  function mtok(tokens, price) {
    if (tokens === 0n) return ZERO;
    return { i: price.i * tokens, s: price.s + 6 };
  }
  // Decimal.normalize() then format "f": no trailing zeros, no exponent
  function text(d) {
    var i = d.i, s = d.s;
    while (s > 0 && i % 10n === 0n) { i /= 10n; s--; }
    var digits = i.toString();
    if (s === 0) return digits;
    while (digits.length <= s) digits = "0" + digits;
    return digits.slice(0, digits.length - s) + "." + digits.slice(digits.length - s);
  }
  // money as `provcat cost` prints it (provcat.cli.model_options.money): every significant
  // digit, at least cents, thousands grouped ($10,000.00, $0.0009)
  function money(d) {
    var parts = text(d).split(".");
    return grouped(parts[0]) + "." + (parts[1] || "").padEnd(2, "0");
  }
  function grouped(digits) { return digits.replace(/\B(?=(\d{3})+$)/g, ","); } // f"{n:,}"
  function priceSet(raw) {
    var out = {};
    PRICE_FIELDS.forEach(function (k) { out[k] = raw && raw[k] !== undefined ? dec(raw[k]) : null; });
    return out;
  }
  function over(top, base) { // PriceSet.over: these prices where given, base's elsewhere
    var out = {};
    PRICE_FIELDS.forEach(function (k) { out[k] = top[k] !== null ? top[k] : base[k]; });
    return out;
  }
  function scaled(set, factor) { // PriceSet.scaled: a batch discount applied
    var out = {};
    PRICE_FIELDS.forEach(function (k) { out[k] = set[k] !== null ? mul(set[k], factor) : null; });
    return out;
  }
  function tiers(list) {
    return (list || []).map(function (t) { return { above: BigInt(t.above_input_tokens), prices: priceSet(t) }; });
  }
  function first() {
    for (var a = 0; a < arguments.length; a++) if (arguments[a] !== null) return arguments[a];
    return null;
  }

  // prices.py's Prices.from_record: a stated batch discount prices every field and every tier
  function pricesOf(block) {
    var base = priceSet(block), list = tiers(block.tiers), batch = null, batchTiers = [];
    if (block.batch && block.batch.discount !== undefined) {
      var factor = add(ONE, neg(dec(block.batch.discount)));
      batch = scaled(base, factor);
      batchTiers = list.map(function (t) { return { above: t.above, prices: scaled(over(t.prices, base), factor) }; });
    } else if (block.batch) {
      batch = over(priceSet(block.batch), base);
      batchTiers = tiers(block.batch.tiers);
    }
    var fees = (block.fees || []).map(function (f) {
      var when = f.when ? Object.keys(f.when)[0] : null;
      return { unit: f.unit, price: dec(String(f.price)), per: BigInt(f.per || 1), option: when,
        value: when === null ? null : f.when[when], isDefault: !!f["default"] };
    });
    return { base: base, tiers: list, batch: batch, batchTiers: batchTiers, fees: fees };
  }

  var raw = JSON.parse(document.getElementById("prices-data").textContent);
  var periods = (Array.isArray(raw) ? raw : [raw]).map(function (block, n) {
    return { n: n + 1, from: block.from || "", until: block.until || "", raw: block, prices: pricesOf(block) };
  });
  var dated = periods.some(function (p) { return p.from || p.until; });
  function periodOn(day) { // prices.py's period_on; a block without days holds on every day
    for (var n = 0; n < periods.length; n++) {
      var p = periods[n];
      if ((!p.from || p.from <= day) && (!p.until || day < p.until)) return p;
    }
    return null;
  }
  var now = new Date();
  var today = now.getFullYear() + "-" + String(now.getMonth() + 1).padStart(2, "0") + "-" +
    String(now.getDate()).padStart(2, "0");
  var prices = null;
  var form = document.getElementById("calc");
  var named = form.getAttribute("data-provider") + "/" + form.getAttribute("data-model");
  var where = "model '" + named + "'";
  var COUNT_OF = { request: "requests", web_search: "web_searches", social_search: "social_searches",
    storage_search: "storage_searches", code_execution: "code_executions" };
  var COUNT_LABEL = { requests: "Requests", web_searches: "Billed web searches",
    social_searches: "Billed social searches", storage_searches: "Billed file searches",
    code_executions: "Billed code executions" };

  function fail(message) { var e = new Error(message); e.provcat = true; throw e; }

  function select(inputTokens, batch) { // cost.py's _select
    var set, list;
    if (batch) {
      if (prices.batch === null) fail(where + " has no batch prices in the catalog");
      set = prices.batch; list = prices.batchTiers;
      if (!list.length && prices.tiers.some(function (t) { return inputTokens > t.above; })) {
        fail(where + " has no batch prices above " + prices.tiers[0].above + " input tokens in the catalog");
      }
    } else {
      set = prices.base; list = prices.tiers;
    }
    var chosen = null;
    list.forEach(function (t) { if (inputTokens > t.above) chosen = t; });
    if (chosen === null) return { p: set, tier: null };
    return { p: over(chosen.prices, set), tier: chosen.above };
  }

  function parts(c) { // cost.py's _parts: each part fits inside its whole, each check with its rule
    var checks = [
      ["cache_read_tokens + cache_write_tokens", "input_tokens", c.cache_read_tokens + c.cache_write_tokens, c.input_tokens,
        "input_tokens counts the whole input, cache reads and writes included"],
      ["cache_write_1h_tokens", "cache_write_tokens", c.cache_write_1h_tokens, c.cache_write_tokens,
        "cache_write_tokens counts every cache write, those for an hour included"],
      ["cache_audio_read_tokens", "cache_read_tokens", c.cache_audio_read_tokens, c.cache_read_tokens,
        "cache_read_tokens counts every cache read, audio ones included"],
      ["cache_audio_read_tokens", "input_audio_tokens", c.cache_audio_read_tokens, c.input_audio_tokens,
        "input_audio_tokens counts the whole audio input, its cache reads included"],
      ["uncached audio + cache reads + cache writes", "input_tokens",
        c.input_audio_tokens - c.cache_audio_read_tokens + c.cache_read_tokens + c.cache_write_tokens, c.input_tokens,
        "input_tokens counts the whole input, cached and audio tokens included"],
      ["output_audio_tokens + reasoning_tokens + citation_tokens", "output_tokens",
        c.output_audio_tokens + c.reasoning_tokens + c.citation_tokens, c.output_tokens,
        "output_tokens counts the whole output, reasoning, citation and audio tokens included"]
    ];
    checks.forEach(function (k) {
      if (k[2] > k[3]) fail("usage " + k[0] + " (" + k[2] + ") is above " + k[1] + " (" + k[3] + "): " + k[4]);
    });
  }

  function feeLines(fees, c, options) { // fees.py's fee_lines
    var known = {};
    fees.forEach(function (f) { if (f.option !== null) known[f.option] = true; });
    Object.keys(options).sort().forEach(function (name) {
      if (!known[name]) fail(where + " has no fee that depends on option '" + name + "'");
    });
    var units = [], groups = {};
    fees.forEach(function (f) {
      if (!groups[f.unit]) { groups[f.unit] = []; units.push(f.unit); }
      groups[f.unit].push(f);
    });
    return units.map(function (unit) {
      var group = groups[unit], fee = group[0], option = fee.option, chosen = null;
      if (option !== null) {
        var values = group.map(function (f) { return f.value; }).sort();
        var wanted = options[option];
        fee = null;
        group.forEach(function (f) {
          if (wanted === undefined ? f.isDefault : f.value === wanted) fee = fee || f;
        });
        if (fee === null && wanted === undefined) {
          fail(where + " prices " + unit + " by " + option + "; name it in options (" + values.join(", ") + ")");
        }
        if (fee === null) fail(where + " has no " + unit + " fee for " + option + "='" + wanted + "'; one of " + values.join(", "));
        chosen = option + "=" + (wanted === undefined ? fee.value : wanted);
      }
      var count = c[COUNT_OF[unit]];
      return { unit: unit, count: count, option: chosen, amount: div(mul(fee.price, { i: count, s: 0 }), fee.per) };
    });
  }

  function estimate(c, batch, day, options) { // cost.py's estimate_cost, after the usage is read
    var period = periodOn(day);
    if (period === null) {
      var spans = periods.map(function (p) { return (p.from || "…") + " to " + (p.until || "…"); }).join(", ");
      fail(where + " has no price in force on " + day + " in the catalog (its prices hold " + spans +
        "; `until` is exclusive)");
    }
    prices = period.prices;
    parts(c);
    var chosen = select(c.input_tokens, batch), p = chosen.p;
    if (p.input === null || p.output === null) fail(where + " lacks an input or output price");
    var audioCached = c.cache_audio_read_tokens;
    var audioUncached = c.input_audio_tokens - audioCached;
    var textUncached = c.input_tokens - audioUncached - c.cache_read_tokens - c.cache_write_tokens;
    var write1h = c.cache_write_1h_tokens;
    var reasoning = p.reasoning !== null ? c.reasoning_tokens : 0n;
    var citation = p.citation !== null ? c.citation_tokens : 0n;
    var cost = {
      input: mtok(textUncached, p.input),
      cache_read: add(mtok(c.cache_read_tokens - audioCached, first(p.cache_read, p.input)),
        mtok(audioCached, first(p.cache_read_audio, p.cache_read, p.input))),
      cache_write: add(mtok(c.cache_write_tokens - write1h, first(p.cache_write, p.input)),
        mtok(write1h, first(p.cache_write_1h, p.cache_write, p.input))),
      input_audio: mtok(audioUncached, first(p.input_audio, p.input)),
      output: mtok(c.output_tokens - c.output_audio_tokens - reasoning - citation, p.output),
      reasoning: mtok(reasoning, p.reasoning),
      citation: mtok(citation, p.citation),
      output_audio: mtok(c.output_audio_tokens, first(p.output_audio, p.output))
    };
    cost.fees = feeLines(prices.fees, c, options);
    var total = ZERO;
    PARTS.forEach(function (part) { total = add(total, cost[part[0]]); });
    cost.fees.forEach(function (f) { total = add(total, f.amount); });
    cost.total = total;
    cost.tier = chosen.tier;
    cost.period = period;
    return cost;
  }

  function counts() {
    var c = {};
    FIELDS.forEach(function (name) {
      var value = document.getElementById("c-" + name).value.trim();
      if (value === "") value = "0";
      if (!/^[0-9]+$/.test(value)) fail("usage " + name + " must be a whole number of tokens, not '" + value + "'");
      c[name] = BigInt(value);
    });
    Object.keys(COUNT_LABEL).forEach(function (name) { // fees.py: one call is one request
      var box = document.getElementById("c-" + name);
      var value = box === null ? "" : box.value.trim();
      if (value === "") value = name === "requests" ? "1" : "0";
      if (!/^[0-9]+$/.test(value)) fail("usage " + name + " must be a whole number, not '" + value + "'");
      c[name] = BigInt(value);
    });
    return c;
  }
  function chosenOptions() {
    var out = {};
    Array.prototype.forEach.call(document.querySelectorAll(".c-option"), function (box) {
      if (box.value !== "") out[box.getAttribute("data-option")] = box.value;
    });
    return out;
  }

  var body = document.querySelector("#c-parts tbody");
  var total = document.getElementById("c-total");
  var error = document.getElementById("c-error");
  var tierLine = document.getElementById("c-tier");
  var command = document.getElementById("c-command");
  function shell(word) { return /^[A-Za-z0-9._\/:-]+$/.test(word) ? word : "'" + word.replace(/'/g, "'\"'\"'") + "'"; }

  // `provcat cost`'s note on a request larger than the model takes (provcat.cli.cost's
  // _limits_note): its words and the limits (request_limits) are the form's data attributes
  var limitsLine = document.getElementById("c-limits");
  var words = JSON.parse(form.getAttribute("data-limits-note"));
  function limit(name) {
    var value = form.getAttribute("data-" + name);
    return value === "" ? null : BigInt(value);
  }
  var mostIn = limit("most-input"), mostOut = limit("most-output"), window_ = limit("window");
  function fill(template, values) { // str.format of the words' {name} fields
    return template.replace(/\{(\w+)\}/g, function (all, name) { return values[name]; });
  }
  function limitsNote(c) {
    var counts = { input: grouped(c.input_tokens.toString()), output: grouped(c.output_tokens.toString()) };
    var over = [];
    if (mostIn !== null && c.input_tokens > mostIn) {
      over.push(fill(words.input, Object.assign({ most_input: grouped(mostIn.toString()) }, counts)));
    }
    if (mostOut !== null && c.output_tokens > mostOut) {
      over.push(fill(words.output, Object.assign({ most_output: grouped(mostOut.toString()) }, counts)));
    }
    if (!over.length && window_ !== null && c.input_tokens + c.output_tokens > window_) {
      over.push(fill(words.window, Object.assign({
        together: grouped((c.input_tokens + c.output_tokens).toString()),
        window: grouped(window_.toString()) }, counts)));
    }
    if (!over.length) return "";
    return "note: " + fill(words.note, { model: named, over: over.join(words.or) });
  }

  var dayBox = document.getElementById("c-day");
  var periodLine = document.getElementById("c-period");
  if (dayBox !== null && dayBox.value === "") dayBox.value = today;

  function update() {
    var batchBox = document.getElementById("c-batch");  // only where the model has batch prices
    var batch = batchBox !== null && batchBox.checked;
    var day = dayBox !== null && dayBox.value ? dayBox.value : today;
    try {
      var c = counts(), options = chosenOptions(), cost = estimate(c, batch, day, options);
      error.hidden = true;
      command.parentNode.hidden = false;
      body.textContent = "";
      function line(id, label, amount) {
        var row = body.insertRow(), th = document.createElement("th"), td = row.insertCell();
        th.scope = "row"; th.textContent = label; row.insertBefore(th, td);
        td.className = "num"; td.id = id; td.textContent = "$" + money(amount);
      }
      PARTS.forEach(function (part) { line("c-part-" + part[0], part[1], cost[part[0]]); });
      cost.fees.forEach(function (f) {
        line("c-fee-" + f.unit, COUNT_LABEL[COUNT_OF[f.unit]] + " (" + f.count + (f.option ? ", " + f.option : "") + ")", f.amount);
      });
      total.textContent = money(cost.total);
      limitsLine.textContent = limitsNote(c);
      limitsLine.hidden = limitsLine.textContent === "";
      tierLine.textContent = cost.tier === null ? "" : "Long-context tier: above " +
        Number(cost.tier).toLocaleString("en-US") + " input tokens.";
      if (periodLine !== null) {
        var p = cost.period;
        periodLine.textContent = "Prices in force on " + day + ": the period " +
          (p.from ? "from " + p.from : "") + (p.from && p.until ? " " : "") +
          (p.until ? "until " + p.until + " (not included)" : p.from ? " on" : "") + ".";
      }
      var more = "";
      if (dated) more += " --as-of " + day;
      if (cost.fees.some(function (f) { return f.unit === "request"; }) && c.requests !== 1n) more += " --requests " + c.requests;
      if (c.web_searches) more += " --web-searches " + c.web_searches;
      PARTS_FLAGS.forEach(function (f) { if (c[f[0]]) more += " --" + f[1] + " " + c[f[0]]; });
      Object.keys(options).sort().forEach(function (k) { more += " --option " + shell(k + "=" + options[k]); });
      command.textContent = "provcat cost " + shell(form.getAttribute("data-provider")) + " " +
        shell(form.getAttribute("data-model")) + " --input " + c.input_tokens + " --output " +
        c.output_tokens + (c.cache_read_tokens ? " --cached " + c.cache_read_tokens : "") +
        (c.cache_write_tokens ? " --cache-write " + c.cache_write_tokens : "") + (batch ? " --batch" : "") + more;
    } catch (e) {
      if (!e.provcat) throw e;
      error.hidden = false;
      error.textContent = e.message;
      command.parentNode.hidden = true;  // no command for what the form holds: none shown
      body.textContent = "";
      total.textContent = "";
      tierLine.textContent = "";
      limitsLine.textContent = "";
      limitsLine.hidden = true;
      if (periodLine !== null) periodLine.textContent = "";
    }
  }

  // the schedule on the reader's day: the period in force, and the next change (next_change)
  function showToday() {
    var intro = document.getElementById("price-today");
    if (intro === null) return;
    var current = periodOn(today);
    Array.prototype.forEach.call(document.querySelectorAll(".period"), function (box) {
      var on = current !== null && box.id === "period-" + current.n;
      box.classList.toggle("current", on);
      box.querySelector(".in-force").hidden = !on;
    });
    intro.textContent = current === null ? "Today (" + today + ") the catalog lists no price." :
      "Today (" + today + ") the period " + (current.from ? "from " + current.from : "until " + current.until) + " is in force.";
    var days = [];
    periods.forEach(function (p) {
      [p.from, p.until].forEach(function (d) { if (d && d > today && days.indexOf(d) < 0) days.push(d); });
    });
    days.sort();
    var next = document.getElementById("next-change");
    next.textContent = "No further change is announced.";
    for (var n = 0; n < days.length; n++) {
      var then = periodOn(days[n]);
      if (then !== current) {
        var listed = then === null ? null : then.raw; // the prices as the catalog writes them
        next.textContent = "Next change: on " + days[n] + (listed === null ? ", no price is listed from then on." :
          ", input $" + listed.input + " and output $" + listed.output + " per million tokens.");
        break;
      }
    }
  }

  form.addEventListener("input", update);
  form.addEventListener("change", update);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  showToday();
  update();
  // shown once it works: without JavaScript the page points to `provcat cost` instead
  form.hidden = false;
  document.getElementById("c-result").hidden = false;
  document.documentElement.setAttribute("data-ready", "1");
})();
