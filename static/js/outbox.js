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
  // While games wait, sending is tried again on a timer, from 2 s doubling to a minute: the page's ``online`` event
  // does not always come (a phone in a cellar keeps its network but has no signal). No timer runs while none waits.
  var FIRST_RETRY = 2000;
  var LAST_RETRY = 60000;
  var retry = {delay: FIRST_RETRY, timer: 0};

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

  // What the scorer chose, in words: the chips and toggles picked and the numbers typed, as far as they are shown (a
  // Ramsch or a null game hides fields of the others).
  function summary(form) {
    var words = [];
    form.querySelectorAll("input").forEach(function (input) {
      if (input.type === "hidden" || input.closest("[hidden]")) return;
      var label = input.closest("label");
      if ((input.type === "radio" || input.type === "checkbox") && input.checked && input.value !== "" && label &&
          label.offsetParent !== null) {
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
    var list = document.createElement("ol");
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
        // 410: the list was closed (a club night) before the game arrived; it is kept nowhere but here.
        var closed = item.conflict === 410;
        var words = away ? box.dataset.away : closed ? box.dataset.closed : refused ? box.dataset.refused :
          box.dataset.conflict;
        why.textContent = words.replace("#", item.number);
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
    // Drawn again only when it changed: a retry that sent nothing is not announced.
    var shown = box.querySelector("ol");
    if (shown.innerHTML !== list.innerHTML) shown.replaceWith(list);
    box.hidden = items.length === 0;
    var fresh = items.filter(function (item) { return !item.conflict; });
    if (!fresh.length) return;
    var last = fresh[fresh.length - 1].number;
    tell(last);
    moveOn(last + 1);
  }

  // The notice says that the game waits here (what it said before, e.g. the way back from an earlier game, is gone).
  function tell(number) {
    var notice = document.getElementById("notice");
    var text = box.dataset.waits.replace("#", number);
    if (!notice || notice.textContent === text) return;
    var said = document.createElement("p");
    said.className = "saved";
    said.setAttribute("role", "status");
    said.textContent = text;
    notice.replaceChildren(said);
    notice.hidden = false;
  }

  // The form moves on to game ``number`` as after a save: its number, and who deals, leads and sits out, worked out as
  // the server does (the deal moves on one seat a game; forehand is the next seat; at four the dealer sits out). The
  // Bock of a game not sent yet is not known here: the line leaves it out.
  function moveOn(number) {
    var form = document.querySelector("form.entry[hx-post]");
    var line = document.querySelector("#status .deal");
    var names = Array.prototype.map.call(document.querySelectorAll("#status .totals .name"), function (name) {
      return name.textContent;
    });
    var seats = names.length;
    if (!form || !form.elements.number || form.dataset.dealer === undefined || !seats) return;
    var before = parseInt(form.dataset.dealer, 10);
    var dealer = ((before + number - parseInt(form.elements.number.value, 10)) % seats + seats) % seats;
    var forehand = (dealer + 1) % seats;
    if (seats === 4 && dealer !== before) seatBack(form, names, dealer, before);
    form.elements.number.value = String(number);
    form.dataset.dealer = String(dealer);
    form.dataset.forehand = String(forehand);
    window.scorekeeperSeats(form);
    if (!line) return;
    var words = {"#": number, dealer: names[dealer], forehand: names[forehand]};
    var out = box.dataset.sitsOut ? " " + fill(box.dataset.sitsOut, words) : "";
    line.textContent = fill(box.dataset.deal, words) + out;
  }

  // At four the seat that sits out has no chip and no card points field: those of the seat that sits out now (``out``)
  // become those of the seat that is back (``back``), in the seats' order.
  function seatBack(form, names, out, back) {
    Array.prototype.forEach.call(form.querySelectorAll("label.choice > input"), function (input) {
      var name = input.nextElementSibling.firstChild;
      if (input.value !== String(out) || name.textContent !== names[out]) return;
      input.value = String(back);
      input.checked = false;
      name.textContent = names[back];
      inSeatOrder(input.closest("fieldset").querySelectorAll("label.choice"), function (label) {
        return label.firstChild.value;
      });
    });
    var points = form.elements["ramsch_" + out];
    if (!points) return;
    var label = form.querySelector('label[for="' + points.id + '"]');
    points.name = "ramsch_" + back;
    points.id = points.id.replace(/\d+$/, String(back));
    points.value = "";
    label.htmlFor = points.id;
    label.textContent = names[back];
    inSeatOrder(form.querySelectorAll('.field:has(> input[name^="ramsch_"])'), function (field) {
      return field.querySelector("input").name.replace("ramsch_", "");
    });
  }

  // Puts the elements (a seat's each, side by side) in the order of their seats; one without a seat (nobody) first.
  function inSeatOrder(elements, seatOf) {
    var all = Array.prototype.slice.call(elements);
    var end = all[all.length - 1].nextSibling;
    all.sort(function (a, b) { return Number(seatOf(a) || -1) - Number(seatOf(b) || -1); })
      .forEach(function (element) { element.parentNode.insertBefore(element, end); });
  }

  function fill(template, words) {
    return template.replace(/#|\{(\w+)\}/g, function (found, name) { return String(words[name || found]); });
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

  function refresh() {
    return waiting().then(function (items) {
      show(items);
      return items;
    });
  }

  function retryLater(items) {
    if (retry.timer) return;
    if (!items.some(function (item) { return !item.conflict; })) {
      retry.delay = FIRST_RETRY;
      return;
    }
    retry.timer = setTimeout(function () {
      retry.timer = 0;
      send();
    }, retry.delay);
    retry.delay = Math.min(retry.delay * 2, LAST_RETRY);
  }

  // The connection may be back: try at once, and from the first delay again if it is not.
  function sendNow() {
    clearTimeout(retry.timer);
    retry.timer = 0;
    retry.delay = FIRST_RETRY;
    send();
  }

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
      // As the page's htmx posts it: 200 is saved; a refusal is 400, 409 or 410 (the list is closed); 401 means the
      // log-in went.
      headers: {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": token, "HX-Request": "true"},
      redirect: "manual",
      body: body.toString(),
    });
  }

  // Send what waits, oldest game first; stop at the first that cannot go (no connection, or a conflict).
  function send() {
    if (sending) return refresh();
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
      if (!sent && !conflicts) return refresh().then(retryLater);
      location.reload();
      return undefined;
    });
  }

  // A save that cannot reach the server goes into the outbox, as it was sent (``params``), and the form is made
  // ready for the next game as after a save: the notice says the game waits here, the line above names the next deal.
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
      form.querySelectorAll("details").forEach(function (details) { details.open = false; });
      preselect(form, params.get("contract"));
      form.querySelector('input[name="token"]').value = uuid4();
      var failed = form.querySelector("[data-save-failed]");
      if (failed) failed.hidden = true;
      var preview = document.getElementById("preview");
      if (preview) preview.replaceChildren();
      return refresh();
    }).then(function (items) {
      // As after a save: a short screen starts at the notice, a tall one at the totals.
      var top = window.innerHeight < 760 ? document.getElementById("notice") : document.getElementById("live");
      if (top) top.scrollIntoView();
      retryLater(items);
    });
  }

  // The last game's contract is chosen for the next one, marked as chosen for the scorer (not a Ramsch), as the
  // server's form does.
  function preselect(form, contract) {
    var contracts = form.querySelector(".contracts");
    var chip = contract && contract !== "ramsch" &&
      form.querySelector('input[name="contract"][value="' + CSS.escape(contract) + '"]');
    if (chip) chip.checked = true;
    if (contracts) contracts.classList.toggle("preselected", Boolean(chip));
  }
  window.scorekeeperOutbox = {keep: keep};

  window.addEventListener("online", sendNow);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") sendNow();
  });
  send();
})();
