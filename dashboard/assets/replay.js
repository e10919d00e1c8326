/*
 * The replay's script: it steps through the frames the server drew once (`dashboard.replay_frames`) with
 * no server round trip. A Dash asset: every page loads it.
 *
 * It wakes when the router shows a replay (an element `#replay-root` with the game's `data-*`), fetches
 * the perspective's frames in parts (the part holding the asked move first, then the others, then every
 * other perspective the visitor may take, each perspective's parts in one request), and from then on every step,
 * jump and perspective switch only swaps drawn HTML into the page. Text from the server (names, log
 * lines) is set with `textContent`; the tables are HTML the server wrote with every value escaped
 * (`dashboard.html_text`). `#replay-root` gets `data-loaded="all"` once nothing is left to fetch.
 *
 * The address follows the move and the perspective: a step replaces the history entry, a jump (Home, End, a
 * move in the list, a round, the slider, the chart, a perspective) adds one, so Back returns to where the
 * jump started and a copied address reopens the same moment.
 *
 * A finished game judged (its card `#replay-judge`, drawn by the server with the VP chart) adds the judge's marks to
 * the move list and its note on the move shown (`#replay-judged-move`); a click on its win-chance graph jumps as a
 * click on the VP chart does. `#replay-root` gets `data-judged="yes"` once the marks are in.
 *
 * A game in play (`data-live` on the root) is followed: one waiting request at a time to `live/<game>`
 * (`dashboard.live`); when a move lands, the parts from the last one on are fetched again with the log, and a
 * viewer who was at the last move is moved to the new one.
 */
(function () {
    "use strict";
    var LOG_MOVES = 40;        // log entries shown up to the cursor (the newest last)
    var PLAY_MS = 700;         // one move per this many milliseconds while playing
    var CHART_WAIT_MS = 250;   // the VP chart's cursor follows once the steps pause this long
    var ADDRESS_WAIT_MS = 150; // and the address this long
    var OWN_KEYS = "input:not(#replay-slider), textarea, select, [contenteditable=true], [role=combobox], " +
        "[role=listbox], [role=option]";
    var LIVE_WAIT_S = 20;      // a game in play: how long one waiting request waits for a new move
    var LIVE_RETRY_MS = 5000;  // and the pause after a failed one
    var IN_FLIGHT = 3;         // requests at once while loading the rest of a replay
    var R = null;              // the open replay, or null

    function $(id) { return document.getElementById(id); }

    function el(tag, cls, text) {
        var node = document.createElement(tag);
        if (cls) { node.className = cls; }
        if (text !== undefined && text !== null) { node.textContent = text; }
        return node;
    }

    function seconds(ms) {
        if (ms === null || ms === undefined) { return ""; }
        if (ms < 1000) { return ms + " ms"; }
        if (ms < 60000) { return (ms / 1000).toFixed(1) + " s"; }
        return Math.floor(ms / 60000) + " min " + Math.round((ms % 60000) / 1000) + " s";
    }

    // -- the first part, asked for as the page starts ----------------------------------------------------
    // A replay opened by its address asks for the part at its move (with the log) from the page's head
    // (dashboard/head/replay-early.js), while Dash starts and its router builds the page, for the perspective the page
    // will show (the server chooses it as the page does: the one the address names if the visitor may take it);
    // the page then takes that answer instead of asking again. A visitor who may not see the game gets no frame
    // (204) and the page says so as always. A move of the router to a replay asks the same way.

    function prefetched(url, p, part) {
        var early = window.__replayEarly;
        if (!early || early.frames !== R.framesUrl || early.part !== part) { return null; }
        window.__replayEarly = null;
        function again() { return fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}}); }
        return early.answer.then(function (response) {
            if (response.status !== 200) { return again(); }
            return response.clone().json().then(function (doc) {  // the perspective the page shows, or ask again
                return doc.perspective === p ? response : again();
            });
        }, again);
    }

    ["pushState", "replaceState"].forEach(function (name) {  // the router's moves within the page
        var original = history[name];
        history[name] = function () {
            var out = original.apply(this, arguments);
            if (!R && window.__replayAskEarly) { window.__replayAskEarly(); }
            return out;
        };
    });

    // -- data -------------------------------------------------------------------------------------------

    function book(p) {
        if (!R.books[p]) { R.books[p] = {frames: {}, parts: {}, moves: null, log: null, chunks: null, points: {}}; }
        return R.books[p];
    }

    function key(v, k) { return v + ":" + (k === null || k === undefined ? "" : k); }

    function partOf(v) { return Math.floor((v - 1) / R.chunk); }

    function answered(response) {
        return response.json().then(function (body) {
            if (!response.ok) { throw new Error((body.error && body.error.message) || response.statusText); }
            return body;
        });
    }

    // A part of a perspective: its frames by move, or (byEvent) its frames within moves. The log comes apart
    // (fetchLog): the first table need not wait for every move to be told.
    function fetchPart(p, part, byEvent) {
        var b = book(p), slot = (byEvent ? "e" : "m") + part;
        if (b.parts[slot]) { return b.parts[slot]; }
        var url = R.framesUrl + "?seat=" + encodeURIComponent(p) + "&part=" + part + "&moves=0&events=" +
            (byEvent ? 1 : 0);
        var mine = R;
        var asked = (!byEvent && prefetched(url, p, part)) ||
            fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}});
        b.parts[slot] = asked
            .then(answered)
            .then(function (doc) {
                if (R !== mine) { return; }
                b.chunks = doc.chunks;
                var global = doc.pieces.map(intern);
                doc.frames.forEach(function (f) {
                    b.frames[key(f.v, f.k)] = {t: f.t.map(function (i) { return global[i]; }), n: f.n, tree: null};
                });
                (doc.points || []).forEach(function (point) { b.points[point.v] = point; });
            })
            .catch(function (error) {
                delete b.parts[slot];
                if (R === mine) { say("Could not load the replay: " + error.message); }
                throw error;
            });
        return b.parts[slot];
    }

    // Every part of a perspective at once (its frames by move, or byEvent within moves), for the background
    // loading: one request and one table of pieces instead of a request a part, each repeating the pieces the
    // parts share. A part already in (or asked for on its own) is left as it is.
    function fetchEvery(p, byEvent) {
        var b = book(p), prefix = byEvent ? "e" : "m";
        var url = R.framesUrl + "?seat=" + encodeURIComponent(p) + "&part=all&events=" + (byEvent ? 1 : 0);
        var mine = R, latest = R.latest;
        return fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
            .then(answered)
            .then(function (doc) {
                if (R !== mine || R.latest !== latest) { return; }  // (a game in play moved on: its parts come anew)
                b.chunks = doc.chunks;
                var global = doc.pieces.map(intern);
                doc.frames.forEach(function (f) {
                    var at = key(f.v, f.k);
                    if (!b.frames[at]) {
                        b.frames[at] = {t: f.t.map(function (i) { return global[i]; }), n: f.n, tree: null};
                    }
                });
                (doc.points || []).forEach(function (point) { b.points[point.v] = point; });
                doc.parts.forEach(function (part) {
                    if (!b.parts[prefix + part]) { b.parts[prefix + part] = Promise.resolve(); }
                });
            })
            .catch(function (error) {
                if (R === mine) { say("Could not load the replay: " + error.message); }
                throw error;
            });
    }

    // A perspective's log (the move list and the event log), told for it: asked for once per perspective (again
    // when a game in play grows), after the first table.
    function fetchLog(p) {
        var b = book(p);
        if (b.log) { return b.log; }
        var url = R.framesUrl + "?seat=" + encodeURIComponent(p) + "&part=" + partOf(R.v) + "&log=1";
        var mine = R;
        b.log = fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
            .then(answered)
            .then(function (doc) {
                if (R !== mine) { return; }
                if (!b.moves || doc.moves.length > b.moves.length) {  // (a live game's log grows)
                    b.moves = doc.moves;
                    if (p === R.p) { buildMoves(); told(); }
                }
            })
            .catch(function (error) {
                b.log = null;
                throw error;
            });
        return b.log;
    }

    // This perspective's log, the part after the cursor's, then the rest of this perspective, then every other
    // perspective the same way (so a switch needs no request either), then this perspective's frames within
    // moves (for stepping by event); the rest of a perspective in one request (fetchEvery). Two requests at a
    // time: the server draws the next while the page takes in the last one. `data-loaded="all"` once every
    // request has answered; a part that failed stays missing, and is asked for again when it is shown.
    function backgroundLoad() {
        var mine = R;
        var queue = [];
        var here = partOf(R.v);
        queue.push(["log", R.p]);
        if (here + 1 < (book(R.p).chunks || 1)) { queue.push(["part", R.p, here + 1]); }  // (a step forward)
        queue.push(["every", R.p, false]);
        R.perspectives.filter(function (p) { return p !== R.p; }).forEach(function (p) {
            queue.push(["log", p]);
            queue.push(["every", p, false]);
        });
        queue.push(["every", R.p, true]);
        var busy = 0;
        function next() {
            if (R !== mine) { return; }
            var item = queue.shift();
            if (!item) {
                if (!busy) { R.root.setAttribute("data-loaded", "all"); }
                return;
            }
            busy += 1;
            var asked = item[0] === "log" ? fetchLog(item[1]) :
                item[0] === "part" ? fetchPart(item[1], item[2], false) : fetchEvery(item[1], item[2]);
            asked.then(done, done);
        }
        function done() { busy -= 1; next(); }
        if (R.loading) { return; }  // one queue per replay: it already covers every perspective
        R.loading = true;
        R.root.setAttribute("data-loaded", "some");
        for (var i = 0; i < IN_FLIGHT; i++) { next(); }
    }

    // -- drawing ----------------------------------------------------------------------------------------

    function say(text) {
        var table = $("replay-table");
        if (table) { table.replaceChildren(el("div", "quiet", text)); }
        if (R) { R.shown = null; }
    }

    // -- the table: pieces of HTML, patched in place ---------------------------------------------------
    // Every part's pieces go into one pool (the same piece, the same number), so two frames can be compared
    // piece by piece. A piece is a whole element or text, or an element's opening or closing tag (an element
    // cut because it is long). A step replaces only the elements whose pieces changed: the rest of the
    // table (the market, the board, a hand nobody touched) stays as it is, and the browser redoes less.

    function intern(piece) {
        var found = R.poolIndex.get(piece);
        if (found === undefined) { found = R.pool.length; R.pool.push(piece); R.poolIndex.set(piece, found); }
        return found;
    }

    var OPENING = /^<[a-zA-Z][^<>]*>$/, VOID = /^<(br|hr|img|wbr)[\s>]/i;

    function tree(frame) {
        if (frame.tree) { return frame.tree; }
        var stack = [{children: []}];
        frame.t.forEach(function (id) {
            var piece = R.pool[id];
            if (piece.charAt(0) === "<" && piece.charAt(1) === "/") {
                var done = stack.pop();
                done.close = id;
                stack[stack.length - 1].children.push(done);
            } else if (OPENING.test(piece) && !VOID.test(piece)) {
                stack.push({open: id, children: []});
            } else {
                stack[stack.length - 1].children.push({leaf: id});
            }
        });
        frame.tree = stack.length === 1 ? stack[0].children : null;  // null: not a tree, drawn whole
        return frame.tree;
    }

    function html(nodes) {
        var out = "";
        for (var i = 0; i < nodes.length; i++) {
            var n = nodes[i];
            out += n.leaf !== undefined ? R.pool[n.leaf] : R.pool[n.open] + html(n.children) + R.pool[n.close];
        }
        return out;
    }

    function patchList(box, before, after) {
        var kids = Array.prototype.slice.call(box.childNodes);
        if (kids.length !== before.length || before.length !== after.length) {  // e.g. two texts made one
            box.innerHTML = html(after);
            return;
        }
        for (var i = 0; i < kids.length; i++) {
            var a = before[i], b = after[i];
            if (a.leaf !== undefined && a.leaf === b.leaf) { continue; }
            if (a.open !== undefined && a.open === b.open && a.close === b.close) {
                patchList(kids[i], a.children, b.children);
                continue;
            }
            var fresh = document.createElement("template");
            fresh.innerHTML = html([b]);
            kids[i].replaceWith(fresh.content);
        }
    }

    function drawTable(table, frame) {
        var after = tree(frame);
        if (R.shown && after && R.shown !== after && table.isConnected) {
            try { patchList(table, R.shown, after); R.shown = after; return; } catch { /* drawn whole */ }
        }
        if (R.shown !== after || !after) { table.innerHTML = after ? html(after) : frame.t.map(function (i) {
            return R.pool[i]; }).join(""); }
        R.shown = after;
    }

    function show(v, k, how) {
        if (!R || !$("replay-table")) { return; }  // the page has gone
        var b = book(R.p);
        var frame = b.frames[key(v, k)];
        R.v = v; R.k = (k === null || k === undefined) ? null : k;
        if (!frame) {
            say("Loading step " + v + "…");
            $("replay-version").replaceChildren(el("span", "quiet", "Loading step " + v + "…"));
            var mine = R, wanted = R.p;
            fetchPart(R.p, partOf(v), R.k !== null).then(function () {
                if (R === mine && R.p === wanted && R.v === v) { show(v, k, null); }
            }, function () {});
            return;
        }
        var table = $("replay-table");
        drawTable(table, frame);
        R.root.setAttribute("data-move", String(v));
        R.root.setAttribute("data-event", R.k === null ? "" : String(R.k));
        label(frame);
        drawLog();
        markMove();
        $("replay-prev").disabled = v <= 1 && R.k === null;
        $("replay-first").disabled = v <= 1 && R.k === null;
        $("replay-next").disabled = v >= R.latest;
        $("replay-last").disabled = v >= R.latest && R.k === null;
        $("replay-next-event").disabled = v >= R.latest && R.k === null;
        $("replay-prev-event").disabled = v <= 1;
        if (R.slider) { R.slider.value = String(v); }
        var here = R.page + "?v=" + v + "&seat=" + encodeURIComponent(R.p);
        $("replay-permalink").setAttribute("href", here);
        address(here, how);
        moveChartCursor(v);
        judgedNote();
    }

    // A jump adds a history entry at once; steps replace the current one once they pause (browsers refuse
    // to rewrite the address hundreds of times a second, and it costs a step time for nothing).
    function address(here, how) {
        if (R.addressTimer) {  // a step not yet written: write it first, so Back returns to it
            clearTimeout(R.addressTimer);
            R.addressTimer = null;
            if (how === "push" && location.pathname === R.page) { history.replaceState({replay: true}, "", R.pending); }
        }
        if (how === "push") {
            history.pushState({replay: true}, "", here);
        } else if (how === "replace") {
            R.pending = here;
            var mine = R;
            R.addressTimer = setTimeout(function () {
                if (R !== mine) { return; }
                R.addressTimer = null;
                if (location.pathname === R.page) { history.replaceState({replay: true}, "", here); }
            }, ADDRESS_WAIT_MS);
        }
    }

    function label(frame) {
        var b = book(R.p), move = b.moves ? b.moves[R.v - 1] : null;
        var box = $("replay-version");
        box.className = "version-label";
        // a step is a record: step 1 sets the game up, each later one is a move (step v is move v - 1, as the
        // games list counts moves) until a finished game's last step reveals the seed
        var parts = [el("strong", null, "Step " + R.v + " of " + R.latest)];
        var what = "setup";
        if (move && move.seat !== null) { what = "move " + (R.v - 1) + " by " + R.names[move.seat]; }
        else if (R.v > 1) { what = "the seed is revealed"; }
        parts.push(el("span", "quiet", " · " + what));
        if (move && move.think !== null && move.think !== undefined) {
            parts.push(el("span", "quiet think", " · thought " + seconds(move.think)));
        }
        if (R.k !== null) {
            var ev = el("span", "quiet", " · event " + R.k + " of " + frame.n);
            ev.id = "replay-event";
            parts.push(ev);
        }
        box.replaceChildren.apply(box, parts);
    }

    // The log arrived: the step's label (who moved, how long they thought) and the event log say it now.
    function told() {
        var frame = book(R.p).frames[key(R.v, R.k)];
        if (!frame || !$("replay-table")) { return; }
        label(frame);
        drawLog();
    }

    function drawLog() {
        var b = book(R.p), box = $("replay-log");
        if (!b.moves) { box.replaceChildren(el("div", "quiet small", "Loading the log…")); return; }
        var first = Math.max(1, R.v - LOG_MOVES + 1), nodes = [];
        for (var v = R.v; v >= first; v--) {       // newest first: the box shows them bottom-up
            var move = b.moves[v - 1], entry = el("div", v === R.v ? "log-entry log-current" : "log-entry");
            entry.setAttribute("data-move", String(v));
            entry.appendChild(el("span", "log-version", String(v)));
            var lines = el("div");
            var upto = (v === R.v && R.k !== null) ? R.k : move.lines.length;
            for (var i = 0; i < upto; i++) {
                if (move.lines[i] !== null) { lines.appendChild(el("div", null, move.lines[i])); }
            }
            if (!lines.childNodes.length) { lines.appendChild(el("div", "quiet", "(no change)")); }
            entry.appendChild(lines);
            nodes.push(entry);
        }
        if (first > 1) {
            nodes.push(el("div", "quiet small", (first - 1) + " earlier move(s) not shown: step back to read them."));
        }
        box.replaceChildren.apply(box, nodes);
        box.scrollTop = 0;  // the newest line (shown last: the box is reversed) in view
    }

    // The compact move list: one row per move (the mover, their think time, what happened first), each a
    // button to jump there; built once per perspective, the current row marked on every step.
    function buildMoves() {
        var b = book(R.p), box = $("replay-moves");
        if (!box || !b.moves) { return; }
        var rows = b.moves.map(function (move) {
            var row = el("button", "move-row");
            row.type = "button";
            row.setAttribute("data-move", String(move.v));
            row.appendChild(el("span", "move-no", String(move.v)));
            var mover = move.seat === null ? (move.v === 1 ? "setup" : "end") : R.names[move.seat];
            row.appendChild(el("span", "move-who", mover));
            var said = move.lines.filter(function (l) { return l !== null; });
            var what = said[0] || "", who = move.seat === null ? null : R.names[move.seat];
            if (who && what.indexOf(who + " ") === 0) { what = what.slice(who.length + 1); }  // the name is beside it
            if (!what && move.kind) { what = move.kind.replace(/_/g, " "); }  // a move the log tells nothing of
            var cell = el("span", "move-what", what), judged = R.judged && R.judged[String(move.v)];
            if (judged && judged.sign) {  // the judge's mark (dashboard.replay_judgement), before the words
                var mark = el("span", "move-mark mark-" + judged.mark, judged.sign);
                mark.title = judged.mark;
                cell.insertBefore(mark, cell.firstChild);
            }
            row.appendChild(cell);
            row.appendChild(el("span", "move-think", seconds(move.think)));
            row.title = said.join("\n");
            return row;
        });
        box.replaceChildren.apply(box, rows);
        R.moveRows = rows;
        R.marked = null;
        markMove();
    }

    function markMove() {
        if (!R.moveRows) { return; }
        var row = R.moveRows[R.v - 1];
        if (R.marked === row) { return; }
        if (R.marked) { R.marked.classList.remove("current"); R.marked.removeAttribute("aria-current"); }
        if (!row) { return; }
        row.classList.add("current");
        row.setAttribute("aria-current", "step");
        R.marked = row;
        var box = row.parentNode, top = row.offsetTop - box.offsetTop;  // scroll the list only, never the page
        if (top < box.scrollTop || top + row.offsetHeight > box.scrollTop + box.clientHeight) {
            box.scrollTop = top - box.clientHeight / 2;
        }
    }

    function chart() {
        var box = $("replay-vp");
        return box ? box.querySelector(".js-plotly-plot") : null;
    }

    function judgeChart() {
        var box = $("replay-judge");
        return box ? box.querySelector(".js-plotly-plot") : null;
    }

    // -- the judge's judgement of a finished game (dashboard.replay_judgement) -------------------------
    // Its card comes with the VP chart, holding every decision's note as JSON (#replay-judge-data): the marks go
    // into the move list, and the note of the move shown into "The judge at this move".

    function readJudgement() {
        var data = $("replay-judge-data");
        if (!R || R.judged || !data) { return; }
        R.judged = JSON.parse(data.getAttribute("data-notes") || "{}");
        R.root.setAttribute("data-judged", "yes");
        var box = $("replay-judged-card");
        if (box) { box.hidden = false; }
        buildMoves();
        judgedNote();
    }

    function judgedNote() {
        var box = $("replay-judged-move");
        if (!R || !R.judged || !box) { return; }
        var found = R.judged[String(R.v)];
        var lines = found ? found.lines : [R.v === 1 ? "The setup: no one chose anything." :
            (R.v === R.latest ? "The seed is revealed: no one chose anything." : "")];
        box.replaceChildren.apply(box, lines.map(function (line) {
            return el("p", line.indexOf("Worth: ") === 0 ? "judged-worth" : "judged-what", line);
        }));
        if (found && found.sign) {
            box.insertBefore(el("p", "move-mark mark-" + found.mark, found.sign + " " + found.mark), box.firstChild);
        }
    }

    // The VP chart is drawn by the server's callback once the first table shows (dashboard.pages.replay.chart).
    function askChart() {
        var mine = R;
        setTimeout(function () {  // after the table is painted
            if (R !== mine || !window.dash_clientside || !window.dash_clientside.set_props) { return; }
            window.dash_clientside.set_props("replay-chart-wanted", {data: {v: R.v}});
        }, 0);
    }

    function moveChartCursor(v) {
        var plot = chart();
        if (!plot || !window.Plotly || !plot.layout) { plot = judgeChart(); }
        if (!plot || !window.Plotly || !plot.layout) { return; }
        // Plotly redraws its whole chart for a moved line: wait until the steps pause, never slow one down.
        if (R.chartTimer) { clearTimeout(R.chartTimer); }
        var mine = R;
        R.chartTimer = setTimeout(function () {
            if (R !== mine) { return; }  // the page has gone (to another page of the dashboard)
            R.chartTimer = null;
            window.Plotly.relayout(plot, {"shapes[0].x0": v, "shapes[0].x1": v});
            var judged = judgeChart();
            if (judged && judged !== plot && judged.layout) { window.Plotly.relayout(judged, {"shapes[0].x0": v, "shapes[0].x1": v}); }
        }, CHART_WAIT_MS);
    }

    // -- moving -----------------------------------------------------------------------------------------

    function count(v) {
        var f = book(R.p).frames[key(v, null)];
        return f ? f.n : 1;
    }

    function go(action, value) {
        var v = R.v, k = R.k;
        if (action === "first") { show(1, null, "push"); }
        else if (action === "last") { show(R.latest, null, "push"); }
        else if (action === "to") { show(Math.max(1, Math.min(R.latest, value)), null, "push"); }
        else if (action === "next") {
            if (k !== null) { show(v, null, "replace"); } else if (v < R.latest) { show(v + 1, null, "replace"); }
        }
        else if (action === "prev") {
            if (k !== null || v > 1) { show(Math.max(1, v - 1), null, "replace"); }
        }
        else if (action === "next-event") {
            var shown = k === null ? count(v) : k;
            if (shown < count(v)) { show(v, shown + 1 < count(v) ? shown + 1 : null, "replace"); }
            else if (v < R.latest) { show(v + 1, count(v + 1) > 1 ? 1 : null, "replace"); }
        }
        else if (action === "prev-event") {
            var now = k === null ? count(v) : k;
            if (now > 1) { show(v, now - 1, "replace"); } else if (v > 1) { show(v - 1, null, "replace"); }
        }
    }

    function play(on) {
        if (R.timer) { clearInterval(R.timer); R.timer = null; }
        if (on) {
            if (R.v >= R.latest) { show(1, null, "push"); }
            var mine = R;
            R.timer = setInterval(function () {
                if (R !== mine) { return; }
                if (R.v >= R.latest) { play(false); return; }
                go("next");
            }, PLAY_MS);
        }
        var button = $("replay-play");
        if (button) { button.textContent = on ? "⏸ Pause" : "▶ Play"; }
    }

    function choose(p, how) {
        if (R.perspectives.indexOf(p) < 0) { return; }
        R.p = p;
        R.root.setAttribute("data-seat", p);
        document.querySelectorAll("#replay-seat .seat-choice").forEach(function (b) {
            var on = b.getAttribute("data-seat") === p;
            b.classList.toggle("active", on);
            b.setAttribute("aria-pressed", on ? "true" : "false");
        });
        R.moveRows = null;
        $("replay-moves").replaceChildren();
        buildMoves();
        var mine = R;
        show(R.v, R.k, how);
        fetchPart(p, partOf(R.v), R.k !== null).then(function () {
            if (R === mine && R.p === p) { buildMoves(); show(R.v, R.k, null); }
        }, function () {});
        fetchLog(p).catch(function () {});
    }

    // -- wiring -----------------------------------------------------------------------------------------

    var BUTTONS = {
        "replay-first": "first", "replay-prev": "prev", "replay-next": "next", "replay-last": "last",
        "replay-prev-event": "prev-event", "replay-next-event": "next-event"
    };

    document.addEventListener("click", function (event) {
        if (!R || !event.target.closest) { return; }
        var target = event.target.closest("button, a");
        if (!target || !R.root.contains(target)) { return; }
        if (BUTTONS[target.id]) { play(false); go(BUTTONS[target.id]); }
        else if (target.id === "replay-play") { play(!R.timer); }
        else if (target.classList.contains("move-row") || target.classList.contains("replay-round")) {
            play(false); go("to", parseInt(target.getAttribute("data-move"), 10));
        }
        else if (target.classList.contains("seat-choice")) {
            choose(target.getAttribute("data-seat"), "push");
        }
    });

    document.addEventListener("keydown", function (event) {
        if (!R || event.altKey || event.ctrlKey || event.metaKey) { return; }
        var actions = {
            ArrowLeft: event.shiftKey ? "prev-event" : "prev", ArrowRight: event.shiftKey ? "next-event" : "next",
            Home: "first", End: "last"
        };
        var action = actions[event.key];
        if (!action) { return; }
        var target = event.target;
        if (target && target.closest && target.closest(OWN_KEYS)) { return; }
        event.preventDefault();
        play(false);
        go(action);
    });

    window.addEventListener("popstate", function () {
        if (!R || location.pathname !== R.page) { return; }
        var params = new URLSearchParams(location.search);
        var v = Math.max(1, Math.min(R.latest, parseInt(params.get("v") || "1", 10) || 1));
        var p = params.get("seat") || R.p;
        play(false);
        if (p !== R.p && R.perspectives.indexOf(p) >= 0) { R.v = v; R.k = null; choose(p, null); }
        else { show(v, null, null); }
    });

    function slider() {
        var box = $("replay-slider-box");
        var input = document.createElement("input");
        input.type = "range"; input.id = "replay-slider"; input.min = "1"; input.max = String(R.latest);
        input.step = "1"; input.value = String(R.v);
        input.setAttribute("aria-label", "Move");
        input.addEventListener("input", function () { play(false); show(parseInt(input.value, 10), null, "replace"); });
        input.addEventListener("change", function () { history.pushState({replay: true}, "", location.href); });
        box.replaceChildren(input);
        R.slider = input;
    }

    function hookChart() {
        [chart(), judgeChart()].forEach(function (plot) {
            if (!plot || !plot.on || plot.getAttribute("data-hooked")) { return; }
            plot.setAttribute("data-hooked", "1");
            plot.on("plotly_click", function (data) {
                if (R && data && data.points && data.points.length) {
                    play(false); go("to", Math.round(data.points[0].x));
                }
            });
            moveChartCursor(R.v);
        });
    }

    // -- a game in play: new moves appear as they land -------------------------------------------------
    // One waiting request at a time (dashboard.live: it answers when the game has moved past the latest move
    // shown). The parts from the one that held the old last move on are dropped and fetched again (with the
    // log); a viewer who was at the last move follows to the new one, anyone else stays where they are.

    function follow() {
        var mine = R, url = R.root.getAttribute("data-live");
        if (!url) { return; }
        R.root.setAttribute("data-followed", "yes");
        function next() {
            if (R !== mine || !R.root.isConnected) { return; }
            fetch(url + "?after=" + R.latest + "&wait=" + LIVE_WAIT_S,
                  {credentials: "same-origin", headers: {"Accept": "application/json"}})
                .then(function (response) { return response.ok ? response.json() : Promise.reject(response.status); })
                .then(function (body) {
                    if (R !== mine) { return; }
                    if (body.version > R.latest) { grow(body.version).then(next, next); }
                    else if (body.status === "over") { R.root.setAttribute("data-followed", "over"); }
                    else { setTimeout(next, body.retry_after ? body.retry_after * 1000 : 0); }
                }, function () { if (R === mine) { setTimeout(next, LIVE_RETRY_MS); } });
        }
        next();
    }

    function grow(latest) {
        var old = R.latest, atEnd = R.v >= old && R.k === null, from = partOf(old), mine = R;
        Object.keys(R.books).forEach(function (p) {
            var b = R.books[p];
            b.moves = null;
            b.log = null;
            Object.keys(b.parts).forEach(function (slot) {
                if (parseInt(slot.slice(1), 10) >= from) { delete b.parts[slot]; }
            });
        });
        R.latest = latest;
        R.root.setAttribute("data-latest", String(latest));
        if (R.slider) { R.slider.max = String(latest); }
        var wanted = [];
        for (var part = from; part <= partOf(latest); part++) { wanted.push(fetchPart(R.p, part, false)); }
        wanted.push(fetchLog(R.p));
        return Promise.all(wanted).then(function () {
            if (R !== mine) { return; }
            growChart(old, latest);
            buildMoves();
            if (atEnd) { show(R.latest, null, "replace"); } else { show(R.v, R.k, null); }
        });
    }

    // The VP chart gains the new moves' points (each seat's line, in trace order), and a dotted line where a
    // new round starts, as the server draws them (dashboard.figures.vp_timeline).
    function growChart(old, latest) {
        var plot = chart(), points = book(R.p).points;
        if (!plot || !window.Plotly || !plot.data) { return; }
        var have = plot.data[0] && plot.data[0].x, drawn = have && have.length ? have[have.length - 1] : 0;
        var from = Math.max(old, drawn);  // (a chart drawn after the page opened has more points already)
        var seats = plot.data.length, xs = [], ys = [], lines = [], before = points[from];
        for (var s = 0; s < seats; s++) { ys.push([]); }
        for (var v = from + 1; v <= latest; v++) {
            var point = points[v];
            if (!point) { return; }  // (not fetched: the chart stays as it was rather than draw a gap)
            xs.push(v);
            for (s = 0; s < seats; s++) { ys[s].push(point.vp[s]); }
            if (before && point.round !== before.round) {
                lines.push({type: "line", xref: "x", yref: "paper", x0: v, x1: v, y0: 0, y1: 1,
                            line: {color: "#bbc", width: 1, dash: "dot"}});
            }
            before = point;
        }
        if (!xs.length) { return; }
        var indices = ys.map(function (_, i) { return i; });
        window.Plotly.extendTraces(plot, {x: ys.map(function () { return xs.slice(); }), y: ys}, indices);
        if (lines.length) {
            window.Plotly.relayout(plot, {shapes: (plot.layout.shapes || []).concat(lines)});
        }
    }

    function mount(root) {
        if (R && R.timer) { clearInterval(R.timer); }
        var perspectives = Array.prototype.map.call(
            root.querySelectorAll("#replay-seat .seat-choice"), function (b) { return b.getAttribute("data-seat"); });
        R = {
            root: root, game: root.getAttribute("data-game"), latest: parseInt(root.getAttribute("data-latest"), 10),
            v: parseInt(root.getAttribute("data-move"), 10) || 1, k: null, p: root.getAttribute("data-seat"),
            framesUrl: root.getAttribute("data-frames"), page: root.getAttribute("data-page"),
            names: JSON.parse(root.getAttribute("data-names") || "[]"), perspectives: perspectives,
            chunk: parseInt(root.getAttribute("data-chunk"), 10) || 25, books: {}, timer: null,
            moveRows: null, marked: null, slider: null, loading: false,
            pool: [], poolIndex: new Map(), shown: null, judged: null
        };
        slider();
        var mine = R;
        fetchPart(R.p, partOf(R.v), false).then(function () {
            if (R !== mine) { return; }
            show(R.v, null, null);
            askChart();
            backgroundLoad();  // (this perspective's log first)
            follow();
        }, function () { askChart(); });
    }

    new MutationObserver(function () {
        var root = $("replay-root");
        if (!root) { if (R) { play(false); R = null; } return; }
        if (!R || R.root !== root) { mount(root); }
        hookChart();
        readJudgement();
    }).observe(document.documentElement, {childList: true, subtree: true});
})();
