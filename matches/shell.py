"""The app shell that makes Scorekeeper installable and usable without a connection: the web app manifest, the
service worker (served from the root, so that it may look after every page) and the page shown offline.

The worker keeps the static files and the offline page; pages always come from the network first, and the last
copy of a page is shown when there is none. Its cache is named after the files it keeps, so a new release
replaces it.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from .permissions import public

THEME_COLOUR = "#1d6b3a"
BACKGROUND_COLOUR = "#fafaf7"
# What the worker keeps for offline use (the offline page is added by URL).
SHELL_FILES = (
    "css/app.css",
    "js/htmx.min.js",
    "js/entry.js",
    "js/outbox.js",
    "js/reset.js",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/favicon-32.png",
)


@cache
def shell_version() -> str:
    """A digest of the files the worker keeps: it changes with every release that changes one of them."""
    digest = hashlib.sha256()
    for name in SHELL_FILES:
        path = finders.find(name)
        if isinstance(path, str):
            with open(path, "rb") as file:
                digest.update(file.read())
    return digest.hexdigest()[:16]


@public
@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": _("Skat and its relatives, scored at the table."),
        "lang": get_language(),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("icons/maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


@public
@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    shell = [static(name) for name in SHELL_FILES] + [reverse("offline")]
    body = (
        SERVICE_WORKER.replace("__VERSION__", json.dumps(shell_version()))
        .replace("__SHELL__", json.dumps(shell))
        .replace("__OFFLINE__", json.dumps(reverse("offline")))
    )
    return HttpResponse(body, content_type="text/javascript")


@public
@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "offline.html")


@public
@require_GET
def offline_reset(request: HttpRequest) -> HttpResponse:
    """A page that takes the worker and its cache away (a way out when an old copy sticks)."""
    return render(request, "offline_reset.html")


SERVICE_WORKER = """\
"use strict";
const VERSION = __VERSION__;
const SHELL = __SHELL__;
const OFFLINE = __OFFLINE__;
const STATIC = "static-" + VERSION;
const PAGES = "pages";
// The pages kept for offline use: the list of matches and each match.
const KEPT = /^\\/(matches\\/[0-9a-f-]{36}\\/)?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("static-") && name !== STATIC)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

// Pages: the network first; a copy of each page seen is kept for when there is no connection.
// Static files: from the cache, which holds exactly this release's files.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok && KEPT.test(new URL(request.url).pathname)) {
            const copy = response.clone();
            caches.open(PAGES).then((cache) => cache.put(request, copy));
          }
          return response;
        })
        .catch(() => caches.match(request, {cacheName: PAGES})
          .then((kept) => kept || caches.match(OFFLINE)))
    );
    return;
  }
  if (SHELL.includes(new URL(request.url).pathname)) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  }
});
"""
