// Small helpers for the game form; the form works without them.
(function () {
  "use strict";
  function updateOpponents(input) {
    var output = document.querySelector('[data-opponents-of="' + input.id + '"]');
    if (!output) return;
    var value = parseInt(input.value, 10);
    output.textContent = isNaN(value) || value < 0 || value > 120 ? "–" : String(120 - value);
  }
  // A save that never reached the server, or failed there, must not go unnoticed; the form keeps its token,
  // so tapping again cannot enter the game twice.
  function showSaveFailed(event) {
    var form = event.target.closest && event.target.closest("form.entry");
    var note = form && form.querySelector("[data-save-failed]");
    if (note && event.detail && event.detail.requestConfig && event.detail.requestConfig.verb === "post" &&
        event.target === form) {
      note.hidden = false;
    }
  }
  document.addEventListener("htmx:responseError", showSaveFailed);
  document.addEventListener("htmx:sendError", showSaveFailed);
  // After a swap with errors, put the focus on the first field that needs attention.
  document.addEventListener("htmx:afterSwap", function (event) {
    var invalid = event.target.querySelector && event.target.querySelector(".entry .invalid input");
    if (invalid) invalid.focus();
  });
  // A tap on a contract, the preselected one too, makes the choice the scorer's own: its mark goes.
  document.addEventListener("click", function (event) {
    var field = event.target.closest && event.target.closest(".contracts.preselected");
    if (field) field.classList.remove("preselected");
  });
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches('input[name="declarer_card_points"]')) {
      updateOpponents(event.target);
    }
  });
})();
