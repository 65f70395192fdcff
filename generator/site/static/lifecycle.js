// A page's lifecycle states on the reader's day (provcat.models.lifecycle.state, as table.js
// judges a row): each element with class "lifecycle-status" holds the YAML status and dates in
// data-status, data-deprecation and data-shutdown, and shows the state they give today; the
// retired note shows when the model it belongs to is retired today. Plain script, no build step.
(function () {
  "use strict";
  var today = new Date();
  var day = today.getFullYear() + "-" + String(today.getMonth() + 1).padStart(2, "0") + "-" +
    String(today.getDate()).padStart(2, "0");
  function asDay(text) { return text.length === 7 ? text + "-01" : text; }
  function state(status, deprecation, shutdown) {
    if (status === "retired" || (shutdown && asDay(shutdown) <= day)) return "retired";
    if (status === "deprecated" || (deprecation && asDay(deprecation) <= day)) return "deprecated";
    return status || "active";
  }
  var found = document.querySelectorAll(".lifecycle-status");
  for (var i = 0; i < found.length; i++) {
    var el = found[i];
    var now = state(el.dataset.status, el.dataset.deprecation, el.dataset.shutdown);
    el.textContent = now;
    if (el.id === "status") {
      var note = document.getElementById("retired-note");
      if (note) note.hidden = now !== "retired";
    }
  }
  document.documentElement.setAttribute("data-ready", "1"); // the page's last script
})();
