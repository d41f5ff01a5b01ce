// Naisei's own few lines of browser code. Everything else is htmx and its websocket extension.
(function () {
  "use strict";

  // Reconnect where we left off: the ws extension reopens the URL it started with, so the
  // session stream's `since` is replaced with the last seq the page has shown (SPEC §8).
  function withSince(url) {
    var marker = document.getElementById("live-seq");
    if (!marker || url.indexOf("/ws/sessions/") === -1) {
      return url;
    }
    var parsed = new URL(url, window.location.href);
    parsed.searchParams.set("since", marker.dataset.seq || "0");
    return parsed.toString();
  }

  // 4503 is the server's "try again later" (its channel layer is away): shown to the ws
  // extension as 1013, which it retries with backoff. A server cannot send 1013 itself.
  var TRY_AGAIN_LATER = 4503;
  function retriedWhenAway(socket) {
    var handler = null;
    Object.defineProperty(socket, "onclose", {
      get: function () {
        return handler;
      },
      set: function (value) {
        handler = value;
      },
    });
    socket.addEventListener("close", function (event) {
      if (!handler) {
        return;
      }
      var away = event.code === TRY_AGAIN_LATER;
      handler(away ? new CloseEvent("close", { code: 1013, reason: event.reason }) : event);
    });
    return socket;
  }

  if (window.htmx) {
    window.htmx.createWebSocket = function (url) {
      var socket = new WebSocket(withSince(url), []);
      socket.binaryType = window.htmx.config.wsBinaryType;
      return retriedWhenAway(socket);
    };
  }

  // The connection state, shown by CSS next to the page title.
  function setState(event, state) {
    var holder = event.target.closest("[data-live]");
    if (holder) {
      holder.dataset.live = state;
    }
  }
  document.addEventListener("htmx:wsOpen", function (event) {
    setState(event, "open");
  });
  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail && event.detail.event ? event.detail.event.code : 0;
    // 4xxx: the server refused us (access, credentials); the extension will not retry.
    setState(event, code >= 4000 ? "refused" : "closed");
  });

  // A live refresh of the canvas (the GET a pushed event triggers) must not eat what the
  // sandbox's counselor is typing: drafts for the same card survive it. A POST's answer (a new
  // card) starts with empty boxes, as it should.
  var drafts = null;
  function cardOf(box) {
    var card = box.closest("[data-card]");
    return card ? card.dataset.card : "";
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    drafts = null;
    if (!detail.target || detail.target.id !== "canvas" || detail.requestConfig.verb !== "get") {
      return;
    }
    drafts = { focused: document.activeElement ? document.activeElement.id : "", boxes: [] };
    detail.target.querySelectorAll("#composer textarea").forEach(function (box) {
      if (box.value) {
        drafts.boxes.push({ id: box.id, card: cardOf(box), value: box.value });
      }
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!drafts) {
      return;
    }
    drafts.boxes.forEach(function (draft) {
      var box = document.getElementById(draft.id);
      if (box && cardOf(box) === draft.card) {
        box.value = draft.value;
      }
    });
    var focused = drafts.focused && document.getElementById(drafts.focused);
    if (focused && focused.closest("#composer")) {
      focused.focus();
    }
    drafts = null;
  });

  // A refreshed canvas keeps the toggles the reader opened or closed (Engine details, free
  // text): each <details> with an id comes back as it was, whatever the server's default.
  var toggles = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    toggles = null;
    if (!target || target.id !== "canvas") {
      return;
    }
    toggles = {};
    target.querySelectorAll("details[id]").forEach(function (box) {
      toggles[box.id] = box.open;
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!toggles) {
      return;
    }
    Object.keys(toggles).forEach(function (id) {
      var box = document.getElementById(id);
      if (box) {
        box.open = toggles[id];
      }
    });
    toggles = null;
  });

  // A live region (`data-live-region`) is fetched again after pushes; but htmx drops a trigger
  // that comes while the region's own request is in flight, so a push arriving during the fetch
  // would be missed until the next one (the crisis queue, a batch's last cards). Pushes are
  // counted; when the new region was requested before the latest push, it is fetched once more.
  var pushes = 0;
  var requestedAt = {};
  document.addEventListener("htmx:wsAfterMessage", function () {
    pushes += 1;
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.hasAttribute("data-live-region")) {
      requestedAt[elt.id] = pushes;
    }
  });
  // htmx:load fires on the new region itself: the swapped-out one is no longer in the page.
  document.addEventListener("htmx:load", function (event) {
    var region = event.detail.elt;
    if (!region || !region.hasAttribute || !region.hasAttribute("data-live-region")) {
      return;
    }
    if (region.id in requestedAt && pushes > requestedAt[region.id]) {
      delete requestedAt[region.id];
      window.htmx.trigger(region, "naisei:stale");
    }
  });

  // The risk form (session page): the current level is preselected; a lower one shows the
  // warning and makes the reason required, and the button waits until there is a change to set
  // (and, to lower, a reason). The server refuses a lowering without a reason all the same.
  function riskFormState(form) {
    var level = form.querySelector("select[name=level]");
    var reason = form.querySelector("textarea[name=reason]");
    var warning = form.querySelector(".risk-lowering");
    var button = form.querySelector("button[type=submit]");
    if (!level || !reason || !button) {
      return;
    }
    var current = form.dataset.current || "";
    var lowering = level.value < current;
    reason.required = lowering;
    if (warning) {
      warning.hidden = !lowering;
    }
    button.disabled = level.value === current || (lowering && !reason.value.trim());
  }
  function riskForms() {
    document.querySelectorAll(".risk-form").forEach(riskFormState);
  }
  ["input", "change"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.target.closest ? event.target.closest(".risk-form") : null;
      if (form) {
        riskFormState(form);
      }
    });
  });
  document.addEventListener("DOMContentLoaded", riskForms);
  document.addEventListener("htmx:afterSettle", riskForms);

  // ?highlightEvent=ID: the event log is rendered open with that event marked; bring it into view.
  document.addEventListener("DOMContentLoaded", function () {
    var highlighted = document.querySelector(".event--highlight");
    if (highlighted) {
      highlighted.scrollIntoView({ block: "center" });
    }
  });
})();
