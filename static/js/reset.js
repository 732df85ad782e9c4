// Takes away the service worker and the copies it keeps; the outbox (IndexedDB) stays, so nothing waiting is lost.
(function () {
  "use strict";
  var button = document.querySelector("[data-reset]");
  if (!button) return;
  button.addEventListener("click", function () {
    var workers = "serviceWorker" in navigator
      ? navigator.serviceWorker.getRegistrations().then(function (all) {
        return Promise.all(all.map(function (registration) { return registration.unregister(); }));
      })
      : Promise.resolve();
    var kept = window.caches
      ? caches.keys().then(function (names) { return Promise.all(names.map(function (name) { return caches.delete(name); })); })
      : Promise.resolve();
    Promise.all([workers, kept]).then(function () {
      document.querySelector("[data-reset-done]").hidden = false;
    });
  });
})();
