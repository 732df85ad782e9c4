// A page that follows a match or a club night asks for news by itself, as often as that is worth it: every few
// seconds while it is in use, less often the longer nobody touches it, never while it is hidden. Its steps come on
// this script's tag (data-steps: every, until, every, until, ..., every, in seconds; the schedule and its reasons:
// matches/following.py). The elements marked data-follow say what to ask (hx-get, hx-trigger="follow"); htmx asks
// and swaps, and the ask carries only what the server reads: HX-Request, no other htmx header, no Referer.
(function () {
  "use strict";
  var steps = document.currentScript.getAttribute("data-steps").split(" ").map(Number);
  var IN_USE = steps[0] * 1000;
  var touched = Date.now();
  var asked = Date.now();
  var timer = 0;

  // The wait before the next ask: the step of the time the page has been left alone.
  function interval() {
    var untouched = (Date.now() - touched) / 1000;
    var index = 0;
    while (index + 1 < steps.length && untouched >= steps[index + 1]) index += 2;
    return steps[index] * 1000;
  }

  function wait(delay) {
    clearTimeout(timer);
    if (!document.hidden) timer = setTimeout(ask, delay);
  }

  function ask() {
    if (document.hidden) return;
    asked = Date.now();
    document.querySelectorAll("[data-follow]").forEach(function (element) {
      element.dispatchEvent(new CustomEvent("follow"));
    });
    wait(interval());
  }

  // Somebody picked the phone up or came back to the page: what it shows is made current at once (unless it asked a
  // moment ago), and it asks often again.
  function touch() {
    touched = Date.now();
    if (document.hidden) {
      clearTimeout(timer);
    } else if (Date.now() - asked >= IN_USE) {
      ask();
    } else {
      wait(asked + IN_USE - Date.now());
    }
  }

  document.addEventListener("pointerdown", touch, {capture: true, passive: true});
  document.addEventListener("keydown", touch, {capture: true, passive: true});
  document.addEventListener("visibilitychange", touch);
  document.addEventListener("htmx:before:request", function (event) {
    var ctx = event.detail && event.detail.ctx;
    if (!ctx || !ctx.sourceElement.hasAttribute("data-follow")) return;
    ctx.request.headers = {"HX-Request": "true"};
    ctx.request.referrerPolicy = "no-referrer";
  });
  wait(interval());
})();
