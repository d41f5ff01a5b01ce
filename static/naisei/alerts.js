// Crisis alerts on every staff page (QUALITY C2; templates/base.html). htmx keeps the banner in
// #crisis-alerts-list current from the counselors' stream; this file makes it hard to miss: the
// page title, a short beep (muted per browser, localStorage) and a system notification when the
// browser allows them. Each alert is announced once per tab (sessionStorage), not on every page.
(function () {
  "use strict";

  var MUTED = "naisei.alerts.muted";
  var SEEN = "naisei.alerts.seen";
  var MARK = "(!) ";
  var root = null;
  var plainTitle = document.title;
  var audio = null;

  function read(store, key, fallback) {
    try {
      var value = store.getItem(key);
      return value === null ? fallback : JSON.parse(value);
    } catch (error) {
      return fallback; // storage off (private mode, a policy): defaults, no memory
    }
  }

  function write(store, key, value) {
    try {
      store.setItem(key, JSON.stringify(value));
    } catch (error) {
      /* as above */
    }
  }

  function muted() {
    return read(window.localStorage, MUTED, false) === true;
  }

  function showControls() {
    document.querySelectorAll(".crisis-mute").forEach(function (button) {
      button.setAttribute("aria-pressed", muted() ? "true" : "false");
    });
    var ask = "Notification" in window && window.Notification.permission === "default";
    document.querySelectorAll(".crisis-notify").forEach(function (button) {
      button.hidden = !ask;
    });
  }

  function soundReady() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) {
      audio = new Context();
    }
    if (audio && audio.state === "suspended") {
      audio.resume();
    }
    return audio;
  }

  function beep() {
    if (muted()) {
      return;
    }
    try {
      var context = soundReady();
      if (!context) {
        return;
      }
      var tone = context.createOscillator();
      var volume = context.createGain();
      var now = context.currentTime;
      tone.type = "sine";
      tone.frequency.value = 880;
      volume.gain.setValueAtTime(0.25, now);
      volume.gain.exponentialRampToValueAtTime(0.001, now + 0.5);
      tone.connect(volume);
      volume.connect(context.destination);
      tone.start(now);
      tone.stop(now + 0.5);
    } catch (error) {
      /* no sound: the banner and the title still say it */
    }
  }

  function notify(alert) {
    if (!("Notification" in window) || window.Notification.permission !== "granted") {
      return;
    }
    try {
      new window.Notification(root.dataset.notice, {
        body: alert.dataset.level + " · " + alert.dataset.label,
        tag: "naisei-crisis-" + alert.dataset.session,
      });
    } catch (error) {
      /* a browser that only notifies from a service worker: the banner stays */
    }
  }

  function update() {
    var alerts = root.querySelectorAll(".crisis-alert");
    document.title = alerts.length ? MARK + plainTitle : plainTitle;
    var seen = read(window.sessionStorage, SEEN, []);
    var open = [];
    var fresh = false;
    alerts.forEach(function (alert) {
      var id = alert.dataset.session;
      open.push(id);
      if (seen.indexOf(id) === -1) {
        fresh = true;
        notify(alert);
      }
    });
    if (fresh) {
      beep();
    }
    write(window.sessionStorage, SEEN, open);
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    if (root && event.detail.target && event.detail.target.id === "crisis-alerts-list") {
      update();
    }
  });

  document.addEventListener("click", function (event) {
    if (!root) {
      return;
    }
    // Browsers start sound only after a gesture on the page: any click readies it.
    soundReady();
    if (event.target.closest(".crisis-mute")) {
      write(window.localStorage, MUTED, !muted());
      showControls();
    } else if (event.target.closest(".crisis-notify")) {
      window.Notification.requestPermission().then(showControls);
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    root = document.getElementById("crisis-alerts");
    if (root) {
      plainTitle = document.title;
      showControls();
    }
  });
})();
