/*
 * The live pages' script (a Dash asset: every page loads it): the play page follows its game, and
 * the organiser's games list flags idle tables.
 *
 * - **Play page** (`#play-root`): one waiting request at a time to `live/<game>?after=V` (`dashboard.live`),
 *   `V` the version the page shows (`#play-now[data-version]`). When the game has moved past it, the script
 *   presses the hidden `#play-refresh` button (the page's Dash callback draws the table again, for the seat)
 *   and waits, without asking the server, until the page shows the new version before it asks again. A failed
 *   request is retried after a pause, never at once.
 * - **Broadcast page** (`#broadcast-root`): the same loop on `broadcast-live/<game>?after=V`, `V` the version the
 *   page shows (`#broadcast-now[data-version]`), answered when a new version becomes visible under the delay;
 *   then it presses `#broadcast-refresh`.
 * - **Clock** (`#play-clock`, a timed game): each running seat's time counts down to its deadline
 *   (`[data-deadline]`, from the server's records); the table itself is redrawn when a record lands.
 * - **Games list** (`#games-table`): each game in play carries the time of its last record
 *   (`[data-since]`); a row quiet for longer than the limit in `#games-idle` (minutes, kept in the address
 *   as `idle=`) is marked idle. Only the clock moves here: no request.
 */
(function () {
    "use strict";
    var WAIT_S = 20, RETRY_MS = 5000, DRAWN_MS = 15000, SUBMIT_MS = 5000;
    var P = null;  // the open play page's loop, or null

    function $(id) { return document.getElementById(id); }

    function shown() {
        var now = $(P && P.nowId ? P.nowId : "play-now");
        return now ? parseInt(now.getAttribute("data-version"), 10) : null;
    }

    // Wait (in the page only) until the table shows at least version v, then go on.
    function whenDrawn(mine, v, then, ms) {
        var until = Date.now() + (ms || DRAWN_MS);
        (function check() {
            if (P !== mine) { return; }
            var now = shown();
            if ((now !== null && now >= v) || Date.now() > until) { then(); } else { setTimeout(check, 100); }
        })();
    }

    function follow(root, nowId, refreshId) {
        // ``sent``: when the player last sent a move, and the version the page showed then.
        var mine = {root: root, url: root.getAttribute("data-live"), sent: {at: 0, from: null}, nowId: nowId,
                    refreshId: refreshId};
        P = mine;
        function next() {
            if (P !== mine || !root.isConnected) { return; }
            var v = shown();
            if (v === null) { whenDrawn(mine, 1, next); return; }
            fetch(mine.url + "?after=" + v + "&wait=" + WAIT_S,
                  {credentials: "same-origin", headers: {"Accept": "application/json"}})
                .then(function (response) { return response.ok ? response.json() : Promise.reject(response.status); })
                .then(function (body) {
                    if (P !== mine) { return; }
                    var now = shown();
                    var answering = now === mine.sent.from && Date.now() - mine.sent.at < SUBMIT_MS;
                    if (body.version > now && answering) {
                        // Most likely the player's own move: its answer draws the table (and says "Played");
                        // a refresh now would make Dash drop that answer. Refresh once it has drawn (or has not
                        // come) if the game is further on still: another seat moved right after.
                        whenDrawn(mine, now + 1, function () {
                            if (shown() < body.version) { $(mine.refreshId).click(); }
                            whenDrawn(mine, body.version, next);
                        }, SUBMIT_MS);
                    } else if (body.version > now) {
                        root.setAttribute("data-behind", String(body.version));
                        $(mine.refreshId).click();
                        whenDrawn(mine, body.version, next);
                    } else if (body.status === "over") {
                        root.setAttribute("data-followed", "over");  // nothing more will come
                    } else {
                        setTimeout(next, body.retry_after ? body.retry_after * 1000 : 0);
                    }
                }, function () { if (P === mine) { setTimeout(next, RETRY_MS); } });
        }
        root.setAttribute("data-followed", "yes");
        next();
    }

    // A move sent from the form's button or from the one under the table (the page's SUBMITS): until its answer
    // draws a newer table, the loop above waits for it instead of pressing refresh over it.
    document.addEventListener("click", function (event) {
        var sent = event.target && event.target.closest && event.target.closest("#play-submit, #play-send");
        if (P && sent) { P.sent = {at: Date.now(), from: shown()}; }
    }, true);

    // -- the play page's clock: a running seat's time counts down ----------------------------------------

    function clockText(seconds) {
        var s = Math.max(0, Math.floor(seconds)), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
        var ss = ("0" + (s % 60)).slice(-2);
        return h ? h + ":" + ("0" + m).slice(-2) + ":" + ss : m + ":" + ss;
    }

    function tickClocks() {
        var now = Date.now();
        document.querySelectorAll("#play-clock .play-clock-seat.running[data-deadline]").forEach(function (span) {
            var deadline = Date.parse(span.getAttribute("data-deadline"));
            if (!isFinite(deadline)) { return; }
            var said = span.getAttribute("data-name") + " " + clockText((deadline - now) / 1000) + " (running)";
            if (span.textContent !== said) { span.textContent = said; }
        });
    }
    setInterval(tickClocks, 1000);

    // -- the games list: idle tables ------------------------------------------------------------------

    function idleLimit() {
        var input = $("games-idle");
        var minutes = input ? parseFloat(input.value) : NaN;
        return isFinite(minutes) && minutes > 0 ? minutes : null;
    }

    function markIdle() {
        var limit = idleLimit(), now = Date.now();
        document.querySelectorAll("#games-table [data-since]").forEach(function (cell) {
            var since = Date.parse(cell.getAttribute("data-since"));
            var minutes = isFinite(since) ? Math.floor((now - since) / 60000) : 0;
            var idle = limit !== null && minutes >= limit;
            var flag = cell.querySelector(".idle-flag"), row = cell.closest("tr");
            var said = idle ? "idle " + minutes + " min" : "";
            // Change the page only where it differs: each change wakes the page's observer, which calls this again.
            if (row.classList.contains("idle") !== idle) { row.classList.toggle("idle", idle); }
            if (flag && flag.textContent !== said) { flag.textContent = said; }
            if (flag && flag.hidden === idle) { flag.hidden = !idle; }
        });
    }

    document.addEventListener("input", function (event) {
        if (!event.target || event.target.id !== "games-idle") { return; }
        var params = new URLSearchParams(location.search), limit = idleLimit();
        if (limit === null) { params.delete("idle"); } else { params.set("idle", String(limit)); }
        var search = params.toString();
        history.replaceState(history.state, "", location.pathname + (search ? "?" + search : ""));
        markIdle();
    });
    setInterval(markIdle, 30000);

    new MutationObserver(function () {
        var root = $("play-root"), watched = $("broadcast-root");
        if (root) {
            if (!P || P.root !== root) { follow(root, "play-now", "play-refresh"); }
        } else if (watched) {
            if (!P || P.root !== watched) { follow(watched, "broadcast-now", "broadcast-refresh"); }
        } else { P = null; }
        if ($("games-table")) { markIdle(); }
    }).observe(document.documentElement, {childList: true, subtree: true});
})();
