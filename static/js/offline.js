// The page shown without a connection in place of one this phone kept no copy of: once the connection is back, the
// page asked for is loaded, and with it the games that wait on this phone are sent. The ``online`` event does not
// always come (a phone in a cellar keeps its network but has no signal): the connection is tried on a timer too, from
// 2 s doubling to a minute.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || location.pathname === script.dataset.page) return;
  var delay = 2000;
  var timer = 0;
  function tryAgain() {
    clearTimeout(timer);
    fetch(location.href, {cache: "no-store", credentials: "same-origin"}).then(function () {
      location.reload();
    }, function () {
      timer = setTimeout(tryAgain, delay);
      delay = Math.min(delay * 2, 60000);
    });
  }
  window.addEventListener("online", tryAgain);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") tryAgain();
  });
  timer = setTimeout(tryAgain, delay);
})();
