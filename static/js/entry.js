// Following a match or a club night (the schedule and its reasons: matches/following.py): a polling element marked
// data-follow (its steps: every, until, every, until, ..., every, in seconds) is asked to ask every few seconds while
// the page is in use, less often the longer nobody touches it, never while the page is hidden, and at once when it
// is picked up or shown again. htmx asks (hx-trigger="follow") with HX-Request only: no other htmx header, no Referer.
(function () {
  "use strict";
  var polling = document.querySelector("[data-follow]");
  if (!polling) return;
  var steps = polling.getAttribute("data-follow").split(" ").map(Number);
  var touched = Date.now();
  var asked = touched;
  var timer;
  function follow(delay) {
    clearTimeout(timer);
    if (document.hidden) return;
    timer = setTimeout(function () {
      asked = Date.now();
      for (var step = 0; step + 1 < steps.length && asked - touched >= steps[step + 1] * 1000; step += 2);
      follow(steps[step] * 1000);
      document.querySelectorAll("[data-follow]").forEach(function (element) {
        element.dispatchEvent(new Event("follow"));
      });
    }, delay);
  }
  ["pointerdown", "keydown", "visibilitychange"].forEach(function (type) {
    document.addEventListener(type, function () {
      touched = Date.now();
      follow(asked + steps[0] * 1000 - touched);
    }, true);
  });
  document.addEventListener("htmx:before:request", function (event) {
    var ctx = event.detail.ctx;
    if (!ctx.sourceElement.hasAttribute("data-follow")) return;
    ctx.request.headers = {"HX-Request": "true"};
    ctx.request.referrerPolicy = "no-referrer";
  });
  follow(steps[0] * 1000);
})();
// Small helpers for the game form; the form works without them.
(function () {
  "use strict";
  // The card points of a deal, as the form says (the engine's total for the variant).
  function cardPoints(input) {
    return input.form ? parseInt(input.form.dataset.cardPoints, 10) : NaN;
  }
  function updateOpponents(input) {
    var output = document.querySelector('[data-opponents-of="' + input.id + '"]');
    if (!output) return;
    var value = parseInt(input.value, 10);
    var total = cardPoints(input);
    output.textContent = isNaN(value) || isNaN(total) || value < 0 || value > total ? "–" : String(total - value);
  }
  // A save that never reached the server, or failed there, must not go unnoticed; the form keeps its token,
  // so tapping again cannot enter the game twice. A refusal (400, 409, 410) is an answer: it shows the reasons.
  var REFUSALS = [400, 409, 410];
  function source(event) {
    return event.detail && event.detail.ctx ? event.detail.ctx.sourceElement : null;
  }
  function showSaveFailed(event) {
    var ctx = event.detail && event.detail.ctx;
    var form = source(event);
    if (!ctx || !form || !form.matches || !form.matches("form.entry")) return;
    if (ctx.request.method.toUpperCase() !== "POST") return;
    var note = form.querySelector("[data-save-failed]");
    if (note && !(ctx.response && REFUSALS.indexOf(ctx.response.status) >= 0)) note.hidden = false;
  }
  document.addEventListener("htmx:response:error", showSaveFailed);
  document.addEventListener("htmx:error", showSaveFailed);
  // A save (or All passed) is on its way: once its answer has been swapped in, the form is made ready for the next
  // game at the top of the screen, or the first field that needs attention gets the focus.
  var saving = false;
  document.addEventListener("htmx:before:request", function (event) {
    var elt = source(event);
    if (elt && elt.matches && elt.matches("#entry, form.pass")) saving = true;
  });
  document.addEventListener("htmx:after:request", function (event) {
    var status = event.detail.ctx.response.status;
    if ((status < 200 || status > 299) && REFUSALS.indexOf(status) < 0) saving = false;
  });
  document.addEventListener("htmx:error", function () { saving = false; });
  // A tap on a contract, the preselected one too, makes the choice the scorer's own: its mark goes.
  document.addEventListener("click", function (event) {
    var field = event.target.closest && event.target.closest(".contracts.preselected");
    if (field) field.classList.remove("preselected");
  });
  // A Ramsch's card points add up to the deal's: once all but one player's are typed, the last one is the rest.
  function fillLastRamsch(input) {
    var box = input.closest(".only-ramsch");
    var total = cardPoints(input);
    if (!box || isNaN(total)) return;
    if (input.value === "") delete input.dataset.typed; else input.dataset.typed = "1";
    var inputs = Array.prototype.slice.call(box.querySelectorAll('input[name^="ramsch_"]'));
    var open = inputs.filter(function (each) { return !each.dataset.typed; });
    if (open.length !== 1) return;
    var sum = inputs.reduce(function (added, each) {
      return added + (each.dataset.typed ? parseInt(each.value, 10) || 0 : 0);
    }, 0);
    open[0].value = sum <= total ? String(total - sum) : "";
  }
  document.addEventListener("input", function (event) {
    if (!event.target.matches) return;
    if (event.target.matches('input[name="declarer_card_points"]')) updateOpponents(event.target);
    if (event.target.matches('input[name^="ramsch_"]')) fillLastRamsch(event.target);
  });
  // After a save the fields stay on the phone: they are cleared and set as a fresh form would start, with the next
  // deal's token, number and version, and the form is ready at the top.
  document.addEventListener("htmx:after:swap", function (event) {
    dropTwiceShownRows();
    // Only the save's own answer (a preview or a follow-up may land while it is on its way).
    var elt = source(event);
    if (!saving || !elt || !elt.matches || !elt.matches("#entry, form.pass")) return;
    saving = false;
    var next = document.getElementById("entry-next");
    var form = document.getElementById("entry");
    if (next && next.dataset.token && form && form.elements.token) keepFields(form, next);
    var invalid = document.querySelector("#entry .invalid");
    if (invalid) {
      // The first field that needs attention gets the focus, and comes into sight with its reason below the totals
      // kept at the top of a tall screen, which would otherwise cover it.
      var input = invalid.querySelector("input");
      if (input) input.focus({preventScroll: true});
      var status = document.querySelector(".status");
      var covered = status && getComputedStyle(status).position === "sticky" ? status.offsetHeight : 0;
      scrollBy(0, invalid.getBoundingClientRect().top - covered - 8);
      return;
    }
    // A short screen starts at the notice just above the form; a tall one at the totals, the site's header scrolled
    // away, so that the notice does not push the form under the save bar.
    var notice = document.getElementById("notice");
    var top = notice && !notice.hidden ? notice : form;
    (window.innerHeight < 760 ? top : document.getElementById("live")).scrollIntoView();
  });
  // The keyboard coming up makes the screen shorter: the field typed in stays above the save bar (the page's
  // scroll-padding is the bar's height), and so does the row of Hand, Kontra and Re below it, the thumb's next taps.
  addEventListener("resize", function () {
    var field = document.activeElement;
    if (!field || !field.matches("#entry input")) return;
    var toggles = field.form.querySelector(".toggles");
    if (toggles && field.compareDocumentPosition(toggles) & Node.DOCUMENT_POSITION_FOLLOWING) {
      toggles.scrollIntoView({block: "nearest"});
    }
    field.scrollIntoView({block: "nearest"});
  });
  // A row the list got twice (the page's own follow-up arrived between a save and its answer) is shown once.
  function dropTwiceShownRows() {
    var seen = {};
    Array.prototype.forEach.call(document.querySelectorAll("#sheet-rows > tr[id]"), function (row) {
      if (seen[row.id]) row.remove(); else seen[row.id] = true;
    });
  }
  function keepFields(form, next) {
    Array.prototype.forEach.call(form.querySelectorAll(".invalid"), function (field) {
      field.classList.remove("invalid");
    });
    Array.prototype.forEach.call(form.querySelectorAll("p.error"), function (error) { error.remove(); });
    Array.prototype.forEach.call(form.querySelectorAll("[aria-invalid]"), function (input) {
      input.removeAttribute("aria-invalid");
    });
    var start = JSON.parse(next.dataset.start || "{}");
    Array.prototype.forEach.call(form.querySelectorAll("input"), function (input) {
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = start[input.name] === input.value || (input.type === "checkbox" && start[input.name] === "True");
      } else if (input.type !== "hidden") {
        input.value = start[input.name] || "";
      }
    });
    form.elements.token.value = next.dataset.token;
    form.elements.number.value = next.dataset.number;
    form.elements.version.value = next.dataset.version;
    form.dataset.dealer = next.dataset.dealer;
    form.dataset.forehand = next.dataset.forehand;
    markSeats(form);
    var contracts = form.querySelector(".contracts");
    if (contracts) contracts.classList.toggle("preselected", Boolean(start.contract));
    var preview = document.getElementById("preview");
    if (preview) {
      var hint = document.createElement("p");
      hint.className = "hints";
      hint.textContent = next.dataset.hint;
      preview.replaceChildren(hint);
    }
    Array.prototype.forEach.call(form.querySelectorAll("output[data-opponents-of]"), function (output) {
      output.textContent = "–";
    });
    Array.prototype.forEach.call(form.querySelectorAll("details"), function (details) { details.open = false; });
    var failed = form.querySelector("[data-save-failed]");
    if (failed) failed.hidden = true;
    next.dataset.token = "";
  }
  function uuid4() {
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (byte) { return (byte + 0x100).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }
  window.scorekeeperToken = uuid4;
  // The declarer chips say who deals and who leads this deal.
  function markSeats(form) {
    var roles = form.querySelector(".seat-roles");
    if (!roles) return;
    Array.prototype.forEach.call(form.querySelectorAll('input[name="declarer"]'), function (input) {
      var chip = input.nextElementSibling;
      var mark = chip.querySelector(".role");
      if (mark) mark.remove();
      var word = input.value === form.dataset.dealer ? roles.dataset.deals
        : input.value === form.dataset.forehand ? roles.dataset.leads : "";
      if (!word) return;
      mark = document.createElement("small");
      mark.className = "role";
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = word;
      chip.appendChild(mark);
    });
  }
  window.scorekeeperSeats = markSeats;
  function markAll() {
    var form = document.getElementById("entry");
    if (form && form.dataset.dealer !== undefined) markSeats(form);
  }
  document.addEventListener("htmx:after:swap", markAll);
  markAll();
  // A page may be a copy kept from an earlier visit, whose tokens were used already: every load makes new ones
  // (a retry from this page still sends the same token; a deal entered twice is refused by its number).
  Array.prototype.forEach.call(document.querySelectorAll("#entry[hx-post], form.pass"), function (form) {
    if (form.elements.token) form.elements.token.value = uuid4();
  });
  // Table mode: the totals large enough to read across the table; the phone remembers the choice.
  function tableMode(on) {
    document.body.classList.toggle("table-mode", on);
    var button = document.querySelector("[data-table-mode]");
    if (button) button.setAttribute("aria-pressed", String(on));
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-table-mode]");
    if (!button) return;
    var on = !document.body.classList.contains("table-mode");
    try { localStorage.setItem("table-mode", on ? "1" : ""); } catch (error) { /* private mode: not kept */ }
    tableMode(on);
  });
  try { tableMode(localStorage.getItem("table-mode") === "1"); } catch (error) { tableMode(false); }
  // The service worker keeps the static files and a copy of the pages seen, for a cellar without signal.
  var script = document.currentScript;
  if ("serviceWorker" in navigator && script && script.dataset.worker) {
    navigator.serviceWorker.register(script.dataset.worker).catch(function () { return undefined; });
  }
  // Pages kept for offline use are the account's: logging in, signing up and logging out forget them first.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("[data-forget-pages]") || !window.caches || form.dataset.forgotten) return;
    event.preventDefault();
    form.dataset.forgotten = "1";
    caches.delete("pages").catch(function () { return false; }).then(function () { form.submit(); });
  });
  // The screen stays on while a match is open (where the browser can keep it on).
  var wakeLock = null;
  function stayAwake() {
    if (!("wakeLock" in navigator) || !document.getElementById("live") || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) { wakeLock = lock; }).catch(function () { return undefined; });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      if (!wakeLock || wakeLock.released) stayAwake();
      return;
    }
    // The screen goes dark between games: while there is a connection, the copy kept for offline use is made
    // current, so that a reload in a cellar shows the list as it stands.
    if (document.getElementById("entry") && navigator.onLine && window.caches) {
      caches.open("pages").then(function (kept) { return kept.add(location.pathname); }).catch(function () {
        return undefined;
      });
    }
  });
  stayAwake();

  // The outbox (outbox.js) comes when it is wanted: when a save cannot reach the server, when the page is opened
  // without a connection, or when games wait on this phone from an earlier visit.
  var outbox = document.getElementById("outbox");
  var outboxScript = null;
  function loadOutbox() {
    outboxScript = outboxScript || new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = outbox.dataset.script;
      script.onload = resolve;
      script.onerror = function () {
        outboxScript = null;
        script.remove();
        reject(new Error("outbox.js"));
      };
      document.head.appendChild(script);
    });
    return outboxScript;
  }
  // Whether games wait on this phone: the outbox keeps a mark ("1" or "0"). Without one (a phone that kept games
  // before there was a mark, or that never kept any), whether it has an outbox at all.
  function gamesMayWait() {
    var mark;
    try { mark = localStorage.getItem("outbox"); } catch (error) { return Promise.resolve(true); }
    if (mark !== null) return Promise.resolve(mark === "1");
    if (!indexedDB.databases) return Promise.resolve(true);
    return indexedDB.databases().then(function (all) {
      return all.some(function (kept) { return kept.name === "scorekeeper"; });
    }, function () { return true; });
  }
  if (outbox && window.indexedDB) {
    gamesMayWait().then(function (wait) {
      if (wait || !navigator.onLine) return loadOutbox();
      return undefined;
    }).catch(function () { return undefined; });
    // What was sent (its token, number and fields) is kept as it was sent, before the outbox's script is there. If
    // the script cannot be had either (no connection and no service worker yet), the game stays in the form, with
    // its note that it was not saved.
    document.addEventListener("htmx:error", function (event) {
      var ctx = event.detail.ctx;
      var form = ctx && !ctx.response ? ctx.sourceElement : null;
      if (!form || !form.matches || !form.matches("form.entry[hx-post]")) return;
      var sent = new URLSearchParams(ctx.request.body);
      loadOutbox().then(function () { return window.scorekeeperOutbox.keep(form, sent); }).catch(function () {
        return undefined;
      });
    });
  }
})();

// A paper list (a form marked data-enter-moves): the number keys have no Tab, so Enter moves on to the next field;
// from the last one it saves, so that a table's list is typed with the keys alone.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    var field = event.target;
    if (event.key !== "Enter" || field.tagName !== "INPUT" || !field.form) return;
    if (!field.form.hasAttribute("data-enter-moves")) return;
    var fields = Array.prototype.filter.call(field.form.elements, function (one) {
      return one.tagName === "INPUT" && one.type !== "hidden" && !one.disabled;
    });
    var next = fields[fields.indexOf(field) + 1];
    if (!next) return;
    event.preventDefault();
    next.focus();
    next.select();
  });
})();
