// The value entry's helpers; it works without them. Typing a value offers the legal values near it, each with the
// games that give it, to take with a tap; choosing the declarer puts the thumb on the value.
(function () {
  "use strict";
  // It comes with every value form the page is given (a switch, a refused save): its listeners are added once.
  if (window.scorekeeperValue) return;
  window.scorekeeperValue = true;
  var SHOWN = 4;
  var tables = new WeakMap();
  // The form says which games give which values, in short ("♦,9,2,18;…;null,23;…"): a suit or grand game's name,
  // base value and lowest and highest multiplier, a null game's name and value.
  function legalValues(picks) {
    if (tables.has(picks)) return tables.get(picks);
    var values = {};
    function add(value, game) { values[value] = values[value] ? values[value] + " · " + game : game; }
    picks.dataset.games.split(";").forEach(function (game) {
      var part = game.split(",");
      if (part.length === 2) {
        add(Number(part[1]), part[0]);
        return;
      }
      for (var multiplier = Number(part[2]); multiplier <= Number(part[3]); multiplier += 1) {
        add(Number(part[1]) * multiplier, part[0] + " ×" + multiplier);
      }
    });
    tables.set(picks, values);
    return values;
  }
  // Below the lowest value the typing has only begun, so the values it begins; beyond, the values closest to it.
  function nearest(values, typed) {
    var all = Object.keys(values).map(Number).sort(function (a, b) { return a - b; });
    if (typed < all[0]) {
      return all.filter(function (value) { return String(value).indexOf(String(typed)) === 0; }).slice(0, SHOWN);
    }
    return all.slice().sort(function (a, b) { return Math.abs(a - typed) - Math.abs(b - typed) || a - b; })
      .slice(0, SHOWN).sort(function (a, b) { return a - b; });
  }
  // The picks come only with this script, and so does their look: the match page's style sheet stays small.
  function showPicks(input) {
    var picks = input.closest(".by-value").querySelector(".value-picks");
    var typed = parseInt(input.value, 10);
    if (!picks) return;
    Object.assign(picks.style, { display: "grid", gridTemplateColumns: "repeat(4, 1fr)", gap: ".3rem" });
    if (isNaN(typed)) {
      picks.replaceChildren();
      return;
    }
    var values = legalValues(picks);
    picks.replaceChildren.apply(picks, nearest(values, typed).map(function (value) {
      var button = document.createElement("button");
      var number = document.createElement("b");
      var games = document.createElement("small");
      button.type = "button";
      Object.assign(button.style, { flexDirection: "column", padding: "0", lineHeight: "1.15" });
      // The value typed is marked as the chosen one; its games are then written in the chip's own colour.
      Object.assign(games.style, { color: value === typed ? "inherit" : "var(--muted)", fontSize: ".7rem" });
      button.dataset.pick = String(value);
      button.setAttribute("aria-pressed", String(value === typed));
      if (value === typed) button.className = "primary";
      number.textContent = String(value);
      games.textContent = values[value];
      button.append(number, " ", games);
      return button;
    }));
  }
  function valueInput(form) {
    return form && form.querySelector('.by-value input[name="value"]');
  }
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches('.by-value input[name="value"]')) showPicks(event.target);
  });
  document.addEventListener("click", function (event) {
    var pick = event.target.closest && event.target.closest("[data-pick]");
    if (!pick) return;
    var input = valueInput(pick.closest("form"));
    if (!input) return;
    input.value = pick.dataset.pick;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (!target.matches || !target.matches('input[name="declarer"]')) return;
    var input = valueInput(target.closest("form"));
    if (input && input.value === "") input.focus();
  });
  // After a save the phone clears the form itself: the picks of the last game go with its value.
  document.addEventListener("htmx:after:swap", function () {
    Array.prototype.forEach.call(document.querySelectorAll('.by-value input[name="value"]'), showPicks);
  });
})();
