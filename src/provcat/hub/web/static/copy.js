// provcat hub: the copy button next to a pull command (the command stays selectable without it).
// The button says whether the copy worked ("Copied", or "Not copied" when the browser refused the
// clipboard: the command is selected, to copy by hand), then shows its own label again.
document.querySelectorAll("button[data-copy]").forEach(function (button) {
  var label = button.textContent;
  var timer = null;
  var say = function (text) {
    button.textContent = text;
    clearTimeout(timer);
    timer = setTimeout(function () { button.textContent = label; }, 2000);
  };
  var copied = function () { say("Copied"); };
  var refused = function () { say("Not copied: copy the selected command"); };
  button.hidden = false;
  button.addEventListener("click", function () {
    var field = document.getElementById(button.getAttribute("data-copy"));
    field.select();
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(copied, refused);
      return;
    }
    var done = false;
    try { done = document.execCommand("copy"); } catch (error) { done = false; }
    (done ? copied : refused)();
  });
});
