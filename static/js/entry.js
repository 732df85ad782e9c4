// Small helpers for the game form; the form works without them.
(function () {
  "use strict";
  function updateOpponents(input) {
    var output = document.querySelector('[data-opponents-of="' + input.id + '"]');
    if (!output) return;
    var value = parseInt(input.value, 10);
    output.textContent = isNaN(value) || value < 0 || value > 120 ? "–" : String(120 - value);
  }
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches('input[name="declarer_card_points"]')) {
      updateOpponents(event.target);
    }
  });
})();
