/* Pronunciation recordings: each button[data-audio] (on term pages, and those the dictionary page adds)
   plays its recording; a recording that can't be played says so next to its button, and a new click tries
   again. Nothing is requested until the reader asks for it. */
(function (Glossary) {
  "use strict";

  var players = new WeakMap();

  function statusOf(button) {
    var item = button.closest(".audio-item");
    return item ? item.querySelector("[data-audio-status]") : null;
  }

  function showProblem(button, message) {
    var status = statusOf(button);
    button.removeAttribute("aria-pressed");
    players.delete(button); // a new click tries again from scratch
    if (status) {
      status.textContent = message;
      status.classList.add("is-error");
      if (!status.id) status.id = "audio-status-" + Math.random().toString(36).slice(2);
      button.setAttribute("aria-describedby", status.id);
    }
  }

  function play(button) {
    var source = Glossary.safeURL(button.getAttribute("data-audio"));
    var status = statusOf(button);
    if (!source) { showProblem(button, Glossary.say("recording_invalid", "This recording’s address is not valid.")); return; }
    if (status) { status.textContent = ""; status.classList.remove("is-error"); }
    var audio = players.get(button);
    if (!audio) {
      audio = new Audio();
      audio.preload = "none";
      audio.addEventListener("error", function () { showProblem(button, Glossary.say("recording_failed", "Couldn’t load this recording. Try again later.")); });
      audio.addEventListener("playing", function () { button.setAttribute("aria-pressed", "true"); });
      audio.addEventListener("ended", function () { button.removeAttribute("aria-pressed"); });
      audio.addEventListener("pause", function () { button.removeAttribute("aria-pressed"); });
      audio.src = source;
      players.set(button, audio);
    }
    audio.currentTime = 0;
    var playing = audio.play();
    if (playing && playing.catch) {
      playing.catch(function (error) {
        if (error && error.name === "AbortError") return;
        if (error && error.name === "NotAllowedError") showProblem(button, Glossary.say("playback_blocked", "The browser blocked playback. Try again."));
        else showProblem(button, Glossary.say("recording_failed", "Couldn’t load this recording. Try again later."));
      });
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-audio]") : null;
    if (button) play(button);
  });
})(window.Glossary);
