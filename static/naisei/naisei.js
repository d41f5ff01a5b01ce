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

  if (window.htmx) {
    window.htmx.createWebSocket = function (url) {
      var socket = new WebSocket(withSince(url), []);
      socket.binaryType = window.htmx.config.wsBinaryType;
      return socket;
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

  // ?highlightEvent=ID: the event log is rendered open with that event marked; bring it into view.
  document.addEventListener("DOMContentLoaded", function () {
    var highlighted = document.querySelector(".event--highlight");
    if (highlighted) {
      highlighted.scrollIntoView({ block: "center" });
    }
  });
})();
