// Live updates only: the tool calls of a question as they happen, and the board's tiles.
// Everything else works without this file.
"use strict";
(function () {
  function askLive() {
    var form = document.getElementById("ask-form");
    if (!form || !window.EventSource) return;
    var current = null; // one question at a time: a new one drops the stream of the last
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var params = new URLSearchParams(new FormData(form));
      var steps = document.getElementById("steps");
      var answer = document.getElementById("answer");
      steps.textContent = "";
      answer.textContent = "";
      if (current) current.close();
      var es = new EventSource("/ask/stream?" + params.toString());
      var ended = false;
      current = es;
      es.addEventListener("step", function (e) {
        var li = document.createElement("li");
        li.textContent = JSON.parse(e.data);
        steps.appendChild(li);
      });
      es.addEventListener("answer", function (e) {
        ended = true;
        answer.innerHTML = JSON.parse(e.data).html; // rendered and escaped by the server
      });
      es.addEventListener("failed", function (e) {
        ended = true;
        var p = document.createElement("p");
        p.className = "error";
        p.textContent = JSON.parse(e.data).error;
        answer.appendChild(p);
      });
      es.addEventListener("done", function () {
        es.close();
        history.replaceState(null, "", "/?" + params.toString());
      });
      es.onerror = function () {
        // the server is gone, or refused the request (its reason is on the plain page)
        es.close();
        if (ended) return;
        var p = document.createElement("p");
        p.className = "error";
        p.setAttribute("role", "alert");
        p.textContent = "No answer: could not reach the server, or it refused the question. ";
        var a = document.createElement("a");
        a.href = "/?" + params.toString();
        a.textContent = "Ask again without live updates";
        p.appendChild(a);
        answer.appendChild(p);
      };
    });
  }

  function boardLive() {
    var board = document.getElementById("board");
    if (!board || !window.EventSource) return;
    var es = new EventSource(board.getAttribute("data-live"));
    es.addEventListener("status", function (e) {
      var data = JSON.parse(e.data);
      var unknown = false;
      Object.keys(data.items).forEach(function (id) {
        var tile = board.querySelector('[data-item="' + CSS.escape(id) + '"]');
        if (!tile) { unknown = true; return; }
        tile.setAttribute("class", "tile st-" + data.items[id]);
        var label = tile.querySelector(".tile-status");
        if (label) label.textContent = data.items[id];
      });
      Object.keys(data.handoffs).forEach(function (id) {
        var arc = board.querySelector('[data-handoff="' + CSS.escape(id) + '"]');
        if (!arc) { unknown = true; return; }
        arc.setAttribute("class", "arc h-" + data.handoffs[id]);
      });
      document.querySelectorAll("[data-count]").forEach(function (el) {
        el.textContent = data.counts[el.getAttribute("data-count")] || 0;
      });
      if (unknown) { es.close(); location.reload(); }
    });
    window.addEventListener("beforeunload", function () { es.close(); });
  }

  document.addEventListener("DOMContentLoaded", function () { askLive(); boardLive(); });
})();
