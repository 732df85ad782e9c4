// The outbox: a game saved without a connection waits on the phone (IndexedDB) and is sent, in game order, when the
// connection returns, the page becomes visible or is opened again. Each keeps the token of its form, so a game whose
// first sending did arrive is answered, not entered twice. A game another phone entered meanwhile is a conflict:
// both are shown and the scorer chooses.
(function () {
  "use strict";
  var box = document.getElementById("outbox");
  if (!box || !window.indexedDB) return;
  var matchId = box.dataset.match;
  var sending = false;

  function database() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open("scorekeeper", 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore("outbox", {keyPath: "token"});
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function store(mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction("outbox", mode);
        var result = work(transaction.objectStore("outbox"));
        transaction.oncomplete = function () { resolve(result && result.result); };
        transaction.onerror = function () { reject(transaction.error); };
      });
    });
  }

  function waiting() {
    return store("readonly", function (outbox) { return outbox.getAll(); }).then(function (items) {
      return (items || []).filter(function (item) { return item.match === matchId; })
        .sort(function (a, b) { return a.number - b.number || a.created - b.created; });
    });
  }

  function put(item) { return store("readwrite", function (outbox) { outbox.put(item); }); }
  function drop(token) { return store("readwrite", function (outbox) { outbox.delete(token); }); }

  // What the scorer chose, in words: the chips and toggles picked and the numbers typed.
  function summary(form) {
    var words = [];
    form.querySelectorAll("input").forEach(function (input) {
      if (input.type === "hidden" || input.closest("[hidden]")) return;
      var label = input.closest("label");
      if ((input.type === "radio" || input.type === "checkbox") && input.checked && input.value !== "" && label) {
        var spoken = label.cloneNode(true);
        Array.prototype.forEach.call(spoken.querySelectorAll("[aria-hidden]"), function (part) { part.remove(); });
        words.push(spoken.textContent.trim().replace(/\s+/g, " "));
      } else if (input.type === "number" && input.value !== "" && input.offsetParent !== null) {
        var named = form.querySelector('label[for="' + input.id + '"]');
        words.push((named ? named.textContent.trim() + " " : "") + input.value);
      }
    });
    return words.join(" · ");
  }

  function show(items) {
    var list = box.querySelector("ol");
    list.textContent = "";
    items.forEach(function (item) {
      var entry = document.createElement("li");
      entry.className = item.conflict ? "conflict" : "pending";
      var text = document.createElement("span");
      text.textContent = box.dataset.game.replace("#", item.number) + ": " + item.summary;
      entry.appendChild(text);
      if (item.conflict) {
        var why = document.createElement("p");
        var refused = item.conflict !== 409 && item.conflict !== true;
        why.textContent = (refused ? box.dataset.refused : box.dataset.conflict).replace("#", item.number);
        entry.appendChild(why);
        entry.appendChild(choice(refused ? box.dataset.drop : box.dataset.keepTheirs, function () {
          drop(item.token).then(refresh);
        }));
        if (refused) return list.appendChild(entry);
        entry.appendChild(choice(box.dataset.keepMine, function () {
          item.conflict = false;
          item.number = nextNumber(items);
          item.body = withNumber(item.body, item.number);
          put(item).then(send);
        }));
      } else {
        entry.appendChild(document.createTextNode(" "));
        var badge = document.createElement("span");
        badge.className = "badge";
        badge.textContent = box.dataset.pending;
        entry.appendChild(badge);
      }
      list.appendChild(entry);
    });
    box.hidden = items.length === 0;
    var form = document.querySelector("form.entry[hx-post]");
    var number = form && form.querySelector('input[name="number"]');
    var fresh = items.filter(function (item) { return !item.conflict; });
    if (number && fresh.length) number.value = String(fresh[fresh.length - 1].number + 1);
  }

  function choice(label, action) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", action);
    return button;
  }

  function nextNumber(items) {
    var form = document.querySelector("form.entry[hx-post]");
    var number = form ? parseInt(form.querySelector('input[name="number"]').value, 10) : 1;
    var others = items.filter(function (item) { return !item.conflict; }).map(function (item) { return item.number; });
    return Math.max.apply(null, [number].concat(others.map(function (n) { return n + 1; })));
  }

  function withNumber(body, number) {
    var params = new URLSearchParams(body);
    params.set("number", String(number));
    return params.toString();
  }

  function refresh() { return waiting().then(show); }

  function uuid4() {
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (byte) { return (byte + 0x100).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function csrfToken() {
    var headers = document.body.getAttribute("hx-headers");
    try { return JSON.parse(headers)["X-CSRFToken"]; } catch (error) { return ""; }
  }

  // A page kept from an earlier visit may carry a token the server no longer takes: ask for the page again and
  // use the token it carries.
  function freshToken() {
    return fetch(location.pathname, {credentials: "same-origin"}).then(function (response) {
      return response.text();
    }).then(function (html) {
      var found = /hx-headers='\{"X-CSRFToken": "([^"]+)"\}'/.exec(html);
      if (found) document.body.setAttribute("hx-headers", '{"X-CSRFToken": "' + found[1] + '"}');
      return found ? found[1] : "";
    });
  }

  function post(item, token) {
    return fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      // A plain post, as without script: its status says what happened (a refusal is 400, 409 or 410).
      headers: {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": token},
      body: item.body,
    });
  }

  // Send what waits, oldest game first; stop at the first that cannot go (no connection, or a conflict).
  function send() {
    if (sending || !navigator.onLine) return refresh();
    sending = true;
    var sent = 0;
    var conflicts = 0;
    function next(items) {
      var item = items.filter(function (each) { return !each.conflict; })[0];
      if (!item) return Promise.resolve();
      return post(item, csrfToken()).then(function (response) {
        if (response.status === 403) return freshToken().then(function (token) { return post(item, token); });
        return response;
      }).then(function (response) {
        if (response.ok) {
          sent += 1;
          return drop(item.token).then(waiting).then(next);
        }
        if (response.status === 400 || response.status === 409 || response.status === 410) {
          item.conflict = response.status;
          conflicts += 1;
          return put(item);
        }
        return undefined;
      });
    }
    return waiting().then(next).catch(function () { return undefined; }).then(function () {
      sending = false;
      // The page shows the match as it stands once what waited has gone, or beside a conflict: the other game.
      if (sent || conflicts) location.reload(); else refresh();
    });
  }

  // A save that cannot reach the server goes into the outbox, and the form is made ready for the next game.
  document.addEventListener("htmx:sendError", function (event) {
    var form = event.detail.elt;
    if (!form || !form.matches || !form.matches("form.entry[hx-post]")) return;
    var params = new URLSearchParams(new FormData(form));
    var token = params.get("token");
    var number = parseInt(params.get("number"), 10) || 1;
    var item = {
      token: token, match: matchId, url: form.getAttribute("hx-post"), body: params.toString(),
      number: number, summary: summary(form), created: Date.now(), conflict: false,
    };
    put(item).then(function () {
      form.reset();
      form.querySelectorAll("input[type=radio], input[type=checkbox]").forEach(function (input) {
        input.checked = false;
      });
      form.querySelector('input[name="token"]').value = uuid4();
      form.querySelector('input[name="number"]').value = String(number + 1);
      var failed = form.querySelector("[data-save-failed]");
      if (failed) failed.hidden = true;
      window.scrollTo(0, 0);
      return refresh();
    });
  });

  window.addEventListener("online", send);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") send();
  });
  send();
})();
