// provcat hub: the copy button next to a pull command (the command stays selectable without it)
document.querySelectorAll("button[data-copy]").forEach(function (button) {
  button.hidden = false;
  button.addEventListener("click", function () {
    var field = document.getElementById(button.getAttribute("data-copy"));
    field.select();
    var done = function () { button.textContent = "Copied"; };
    if (navigator.clipboard) { navigator.clipboard.writeText(field.value).then(done, done); }
    else { document.execCommand("copy"); done(); }
  });
});
