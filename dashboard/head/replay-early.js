/*
 * Run in the page's head, before Dash's scripts load (dashboard/static.py inlines it there, with the frames' part
 * size in `data-chunk`): a replay opened by its address asks for its first part at once, while Dash starts; the
 * replay's script (dashboard/assets/replay.js) then takes that answer instead of asking again (the log comes
 * after the first table: `moves=0`). `early=1`: the
 * server answers for the perspective the page will show (it chooses it as the page does), 204 for a visitor who
 * may not see the game.
 */
(function () {
    "use strict";
    var CHUNK = parseInt(document.currentScript.getAttribute("data-chunk"), 10) || 25;
    window.__replayAskEarly = function () {
        var path = location.pathname, at = path.lastIndexOf("/replay/");
        if (at < 0 || path.indexOf("/", at + 8) >= 0 || at + 8 >= path.length) { return; }
        var params = new URLSearchParams(location.search);
        var v = Math.max(1, parseInt(params.get("v") || "1", 10) || 1);
        var frames = path.slice(0, at) + "/replay-frames/" + path.slice(at + 8), part = Math.floor((v - 1) / CHUNK);
        var url = frames + "?seat=" + encodeURIComponent(params.get("seat") || "referee") + "&part=" + part +
            "&moves=0&events=0&early=1";
        var early = window.__replayEarly;
        if (early && early.url === url) { return; }
        var answer = fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}});
        answer.catch(function () {});
        window.__replayEarly = {url: url, frames: frames, part: part, answer: answer};
    };
    window.__replayAskEarly();
})();
