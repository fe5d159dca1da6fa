// Vigil dashboard behaviour htmx does not cover. No inline script is
// allowed by the Content-Security-Policy, so everything lives here.
(function () {
  "use strict";

  // Forms with data-confirm ask before they submit.
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    var msg = form.getAttribute && form.getAttribute("data-confirm");
    if (msg && !window.confirm(msg)) {
      ev.preventDefault();
    }
  }, true);

  // A polled region is not refreshed while the user works inside it:
  // the refresh would wipe a half-typed comment or move focus away.
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var el = ev.detail && ev.detail.elt;
    if (!el || !el.hasAttribute("data-keep-while-editing")) {
      return;
    }
    var active = document.activeElement;
    if (active && el.contains(active) && active !== document.body) {
      ev.preventDefault();
      return;
    }
    var fields = el.querySelectorAll("textarea, input[type=text]");
    for (var i = 0; i < fields.length; i++) {
      if (fields[i].value !== "") {
        ev.preventDefault();
        return;
      }
    }
  });
})();
