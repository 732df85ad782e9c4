// Sharing the results, from the share buttons (the match page's foot, its page of rules and sharing, a club night's
// page); the buttons work without it: the picture downloads. It comes with the buttons, with a swap too: its
// listeners are added once.
(function () {
  "use strict";
  if (window.scorekeeperShare) {
    window.scorekeeperShare();
    return;
  }
  // "Share the results as text": the phone's share sheet where it has one, else the clipboard. The text is the
  // page's latest standings (the match page renews them with every save).
  var canShare = typeof navigator.share === "function";
  var canCopy = navigator.clipboard && typeof navigator.clipboard.writeText === "function";
  var offerSharing = window.scorekeeperShare = function () {
    if (!canShare && !canCopy) return;
    document.querySelectorAll("[data-share][hidden]").forEach(function (button) { button.hidden = false; });
  };
  offerSharing();
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-share]");
    if (!button) return;
    var standings = document.querySelector("[data-share-text]");
    var text = standings ? standings.getAttribute("data-share-text") : "";
    if (canShare) {
      navigator.share({ text: text }).catch(function () { return undefined; });
      return;
    }
    navigator.clipboard.writeText(text).then(function () { button.textContent = button.getAttribute("data-copied"); });
  });

  // "Share the results as a picture": a link that downloads the PNG. Where the phone can share files, a tap fetches
  // the picture as it stands and hands it to the share sheet instead.
  var canShareFiles = typeof navigator.canShare === "function" && typeof File === "function" &&
    navigator.canShare({ files: [new File([""], "results.png", { type: "image/png" })] });
  function fileName(response) {
    var header = response.headers.get("Content-Disposition") || "";
    var encoded = /filename\*=utf-8''([^;]+)/i.exec(header);
    if (encoded) return decodeURIComponent(encoded[1]);
    var plain = /filename="([^"]+)"/.exec(header);
    return plain ? plain[1] : "results.png";
  }
  function download(file) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(file);
    link.download = file.name;
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
  }
  // A picture fetched but not shared yet (the phone asked for a fresh tap), by the link it belongs to.
  var readyPictures = new WeakMap();
  function sharePicture(link, file) {
    var label = link.dataset.label;
    navigator.share({ files: [file] }).then(function () { link.textContent = label; }, function (error) {
      // The picture took too long for the phone to count the tap (it asks for a fresh one): the next tap shares
      // it at once. Cancelling the share sheet leaves everything as it was.
      if (error && error.name === "NotAllowedError") {
        readyPictures.set(link, file);
        link.textContent = link.getAttribute("data-ready");
      } else if (!error || error.name !== "AbortError") {
        download(file);
      }
    });
  }
  document.addEventListener("click", function (event) {
    var link = canShareFiles && event.target.closest && event.target.closest("[data-share-picture]");
    if (!link) return;
    event.preventDefault();
    if (link.dataset.label === undefined) link.dataset.label = link.textContent;
    var ready = readyPictures.get(link);
    if (ready) {
      readyPictures.delete(link);
      sharePicture(link, ready);
      return;
    }
    fetch(link.href, { credentials: "same-origin", cache: "no-cache" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.blob().then(function (blob) {
          return new File([blob], fileName(response), { type: "image/png" });
        });
      })
      .then(function (file) { sharePicture(link, file); }, function () { window.location.assign(link.href); });
  });
})();
