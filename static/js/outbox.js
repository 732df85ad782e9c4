// The outbox: a game saved without a connection waits on the phone (IndexedDB) and is sent, in game order, when the
// connection returns, the page becomes visible or is opened again. The page loads this script when it is wanted (see
// entry.js) and hands it the save that could not go, as it was sent: ``scorekeeperOutbox.keep(form, params)``. Each
// keeps the token of its form, so a game whose first sending did arrive is answered, not entered twice. A game another
// phone entered meanwhile is a conflict: both are shown and the scorer chooses.
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

  // Whether games wait on this phone, for any match: a page opened later loads this script at once only then.
  function mark(wait) {
    try {
      localStorage.setItem("outbox", wait ? "1" : "0");
    } catch (error) {
      return; // without storage (private mode) the page loads the outbox every time
    }
  }

  function waiting() {
    return store("readonly", function (outbox) { return outbox.getAll(); }).then(function (items) {
      mark(items && items.length > 0);
      return (items || []).filter(function (item) { return item.match === matchId; })
        .sort(function (a, b) { return a.number - b.number || a.created - b.created; });
    });
  }

  function put(item) {
    mark(true);
    return store("readwrite", function (outbox) { outbox.put(item); });
  }
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
        var away = item.conflict === 401 || item.conflict === 403;
        var refused = item.conflict !== 409 && item.conflict !== true && !away;
        why.textContent = (away ? box.dataset.away : refused ? box.dataset.refused : box.dataset.conflict)
          .replace("#", item.number);
        if (away) {
          entry.appendChild(why);
          entry.appendChild(choice(box.dataset.retry, function () {
            item.conflict = false;
            put(item).then(send);
          }));
          return list.appendChild(entry);
        }
        entry.appendChild(why);
        entry.appendChild(choice(refused ? box.dataset.drop : box.dataset.keepTheirs, function () {
          drop(item.token).then(refresh);
        }));
        if (refused) return list.appendChild(entry);
        entry.appendChild(choice(box.dataset.keepMine, function () {
          // Entered anew, as the next game: a new deal number and a token of its own.
          var again = Object.assign({}, item, {conflict: false, number: nextNumber(items), token: uuid4()});
          again.body = withFields(item.body, {number: again.number, token: again.token});
          drop(item.token).then(function () { return put(again); }).then(send);
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

  function withFields(body, fields) {
    var params = new URLSearchParams(body);
    Object.keys(fields).forEach(function (name) { params.set(name, String(fields[name])); });
    return params.toString();
  }

  function refresh() { return waiting().then(show); }

  function uuid4() { return window.scorekeeperToken(); }

  function csrfToken() {
    var headers = document.body.getAttribute("hx-headers:inherited");
    try { return JSON.parse(headers)["X-CSRFToken"]; } catch (error) { return ""; }
  }

  // A page kept from an earlier visit may carry a token the server no longer takes: ask for the page again and
  // use the token it carries.
  function freshToken() {
    return fetch(location.pathname, {credentials: "same-origin"}).then(function (response) {
      return response.text();
    }).then(function (html) {
      var found = /hx-headers:inherited='\{"X-CSRFToken": "([^"]+)"\}'/.exec(html);
      if (found) document.body.setAttribute("hx-headers:inherited", '{"X-CSRFToken": "' + found[1] + '"}');
      return found ? found[1] : "";
    });
  }

  function post(item, token) {
    // The token goes in the header only: the one the form carried may be from a CSRF cookie that has gone since.
    var body = new URLSearchParams(item.body);
    body.delete("csrfmiddlewaretoken");
    return fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      // As the page's htmx posts it: 200 is saved; a refusal is 400, 409 or 410; 401 means the log-in went.
      headers: {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": token, "HX-Request": "true"},
      redirect: "manual",
      body: body.toString(),
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
        if (response.status === 200) {
          sent += 1;
          return drop(item.token).then(waiting).then(next);
        }
        if ([400, 401, 403, 409, 410].indexOf(response.status) >= 0) {
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

  // A save that cannot reach the server goes into the outbox, as it was sent (``params``), and the form is made
  // ready for the next game.
  function keep(form, params) {
    var token = params.get("token");
    var number = parseInt(params.get("number"), 10) || 1;
    var item = {
      token: token, match: matchId, url: form.getAttribute("hx-post"), body: params.toString(),
      number: number, summary: summary(form), created: Date.now(), conflict: false,
    };
    return put(item).then(function () {
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
  }
  window.scorekeeperOutbox = {keep: keep};

  window.addEventListener("online", send);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") send();
  });
  send();
})();
