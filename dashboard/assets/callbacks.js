/*
 * The dashboard's clientside callbacks, named `digsite.<name>` in the pages' `ClientsideFunction`s: what a page
 * does in the browser alone, with no request to the server.
 */
(function () {
    "use strict";

    // The address's query for these names and values: the empty ones left out, each value cut to 100 characters.
    function query(names, values) {
        var parts = [];
        for (var i = 0; i < names.length; i++) {
            var v = values[i];
            if (v !== null && v !== undefined && v !== "") {
                parts.push(names[i] + "=" + encodeURIComponent(String(v).slice(0, 100)));
            }
        }
        return parts;
    }

    // Replace the history entry (Back leaves the page, as before) when the address's query changes.
    function follow(parts) {
        var search = parts.length ? "?" + parts.join("&") : "";
        if (location.search !== search) { history.replaceState(history.state, "", location.pathname + search); }
        return search;
    }

    // The games list writes its filters into the address as they change. The names are the address's, in the
    // order of `PARAMS` in dashboard/pages/games.py.
    var GAMES_PARAMS = ["kind", "tournament", "round", "player", "status", "winner", "from", "to"];

    function gamesAddress(kind, tournament, round, player, status, winner, start, end) {
        var parts = query(GAMES_PARAMS, [kind, tournament, round, player, status, winner, start, end]);
        var idle = new URLSearchParams(location.search).get("idle");  // the idle limit's (live.js)
        if (idle) { parts.push("idle=" + encodeURIComponent(idle.slice(0, 10))); }
        return follow(parts);
    }

    // The players page writes its choices into the address (a copied address or a reload shows the same player).
    function playersAddress(player, other, kind, size) {
        return follow(query(["player", "other", "game", "size"], [player, other, kind, size]));
    }

    // The play page's table arrives as HTML text (`dashboard.html_text`, as the replay's frames do) and is put in
    // place here: an Arnak table is some 600 components, which React took most of a move's answer to render.
    function playTable(drawn) {
        var table = document.getElementById("play-table");
        if (!table || !drawn) { return window.dash_clientside.no_update; }
        table.innerHTML = drawn.html;
        table.setAttribute("data-version", String(drawn.version));
        return drawn.version;
    }

    var listed = null;  // the picker the play page's options were last listed from (playOptions)

    // The play page's options for the kind of move and the cards picked: the same rule as
    // `dashboard.picker.matching` (a choice that uses cards only when exactly those are picked; one that uses
    // none always); the cards are shown only when the kind of move uses some. A new picker that names the move the
    // player had chosen (`kept`: the server's, when the game moved on by another seat's move that left the choice
    // standing: `still_picked`, dashboard/pages/play.py) chooses it again; a pick of cards or kind does not. Such a
    // picker (`stands`) keeps first the move chosen in the browser now (`current`), where still offered: one chosen
    // while the look that drew it was on its way, which the server did not know of.
    function playOptions(picker, group, cards, current) {
        var fresh = picker !== listed;
        listed = picker;
        if (!picker) { return [[], null, {display: "none"}, {display: "none"}]; }
        var groups = picker.groups || [], several = groups.length > 1;
        var picked = (cards || []).map(String).sort().join(",");
        var offered = [], usable = false;
        (picker.choices || []).forEach(function (c) {
            if (several && c.group !== group) { return; }
            if (c.cards !== null) { usable = true; }
            if (c.cards !== null && c.cards.slice().sort().join(",") !== picked) { return; }
            offered.push({label: c.label, value: c.value});
        });
        var hide = usable ? {} : {display: "none"};
        var offers = function (v) {
            return v !== null && v !== undefined && offered.some(function (o) { return o.value === v; });
        };
        var kept = !fresh ? null : picker.stands && offers(current) ? current : offers(picker.kept) ? picker.kept : null;
        return [offered, kept !== null ? kept : offered.length === 1 ? offered[0].value : null, hide, hide];
    }

    // Picking on the table (the play page): the things the game's table marks `data-pick` become toggles (a
    // button each: Tab reaches it, Enter/Space/click/tap toggles it) when the picker offers them, either as a
    // card to pick (`picker.cards`: the toggle clicks the form's own box for it, so the boxes stay the one record
    // of what is picked and the options follow as when the box is ticked) or as what moves are made with (a
    // choice's `marks`, the thing it is made at first: picking it offers those moves under the table, whatever
    // their kind; picking more of its marks too, such as the cards paid with, narrows them). Once a move is
    // chosen, its crafted forms (the server's answer for that move, `play-craft-picker`) mark what crafting
    // adds (a market's card): picking one offers the forms that add it. A move whose mark is nowhere on the
    // table, or that has none (ending a turn, a number to choose), is offered under the table with nothing
    // picked, so every legal move can be made from the table.
    var play = {picker: null, shown: null, options: [], value: null, marks: [], pending: null, craft: [], crafted: null};

    function markCounts() {
        var out = {};
        ((play.picker && play.picker.choices) || []).concat(play.craft).forEach(function (c) {
            (c.marks || []).forEach(function (m) { out[m] = (out[m] || 0) + 1; });
        });
        return out;
    }

    function onTable(mark) {
        return !!document.querySelector("#play-table [data-pick='" + CSS.escape(mark) + "']");
    }

    function has(list, item) { return list.indexOf(item) >= 0; }

    // The choices the marks picked allow: a move's own first mark among them and every one picked among its
    // marks (a crafted form: every one picked among what it adds).
    function marked(choices, marks, crafted) {
        if (!marks.length) { return []; }
        return choices.filter(function (c) {
            var own = c.marks || [];
            if (!own.length || (!crafted && !has(marks, own[0]))) { return false; }
            return marks.every(function (m) { return has(own, m); });
        });
    }

    function pickedCards() {
        return Array.from(document.querySelectorAll("#play-cards input:checked")).map(function (i) { return i.value; });
    }

    // The moves under the table now: those the marks picked allow (crafting first), else the moves made with
    // nothing marked (with the cards picked, where the game picks cards).
    function offeredNow() {
        if (!play.picker) { return []; }
        if (play.marks.length) {
            var forms = marked(play.craft, play.marks, true);
            return forms.length ? forms : marked(play.picker.choices || [], play.marks, false);
        }
        var cards = pickedCards().sort().join(",");
        return (play.picker.choices || []).filter(function (c) {
            var own = c.marks || [];
            if (own.length && onTable(own[0])) { return false; }
            return c.cards === null || c.cards === undefined || c.cards.slice().sort().join(",") === cards;
        });
    }

    // Mark what may be picked on the table now (the picker's cards and every mark of its moves and of the
    // chosen move's crafted forms), as pressed or not.
    function markTable() {
        var table = document.getElementById("play-table");
        if (!table) { return 0; }
        var cards = {}, picked = {}, marks = markCounts(), count = 0;
        ((play.picker && play.picker.cards) || []).forEach(function (c) { cards[String(c.value)] = c.label; });
        pickedCards().forEach(function (v) { picked[v] = true; });
        table.querySelectorAll("[data-pick]").forEach(function (el) {
            var v = el.getAttribute("data-pick");
            var card = Object.prototype.hasOwnProperty.call(cards, v), mark = !card && marks[v];
            if (play.picker && (card || mark)) {
                el.classList.add("pickable");
                el.setAttribute("role", "button");
                el.setAttribute("tabindex", "0");
                el.setAttribute("aria-pressed", (card ? picked[v] : has(play.marks, v)) ? "true" : "false");
                el.setAttribute("aria-label", "Pick " + (card ? cards[v] : el.getAttribute("title") || v));
                count++;
            } else {
                el.classList.remove("pickable");
                ["role", "tabindex", "aria-pressed", "aria-label"].forEach(function (a) { el.removeAttribute(a); });
            }
        });
        return count;
    }

    // A new answer's moves (a new table, or the same one's moves again): nothing marked is picked any more.
    function newAnswer(picker) {
        if (play.picker !== picker) { play.marks = []; play.craft = []; }
        play.picker = picker;
    }

    function playPicks(picker, cards, shown) {
        if (!document.getElementById("play-table")) { return window.dash_clientside.no_update; }
        if (play.shown !== shown) { play.marks = []; play.craft = []; }  // a new table: nothing marked is picked
        newAnswer(picker);
        play.shown = shown;
        var count = markTable();
        renderChoices();
        return {version: shown, pickable: count};
    }

    // The chosen move's crafted forms, named by the game's picker (or none): what they add becomes pickable.
    function playCraft(forms) {
        play.craft = forms || [];
        play.marks = play.marks.filter(function (m) { return !!markCounts()[m]; });
        markTable();
        renderChoices();
        showPreview();
        return play.craft.length;
    }

    function togglePick(el) {
        var v = el.getAttribute("data-pick");
        var box = Array.from(document.querySelectorAll("#play-cards input")).find(function (i) { return i.value === v; });
        if (box) { box.click(); return; }
        if (has(play.marks, v)) {
            play.marks = play.marks.filter(function (m) { return m !== v; });
        } else {
            // picked with the others when some move is made with all of them, else a fresh pick of its own
            var more = play.marks.concat([v]);
            var any = marked(play.craft, more, true).length || marked(play.picker.choices || [], more, false).length;
            play.marks = any ? more : [v];
        }
        markTable();
        renderChoices();
        showPreview();
    }

    document.addEventListener("click", function (e) {
        var el = e.target.closest && e.target.closest("#play-table .pickable");
        if (el) { togglePick(el); }
    });
    document.addEventListener("keydown", function (e) {
        if (e.key !== "Enter" && e.key !== " ") { return; }
        var el = e.target.closest && e.target.closest("#play-table .pickable");
        if (el) { e.preventDefault(); togglePick(el); }
    });

    function radio(list, value) {
        return Array.from(document.querySelectorAll(list + " input")).find(function (i) { return i.value === value; });
    }

    // The moves under the table, each a button in the picker's words (with its kind where they are of several
    // kinds); a crafted form says so (`data-craft`).
    function plural(n) { return n === 1 ? "1 move" : n + " moves"; }

    function renderChoices() {
        var list = document.getElementById("play-choices"), hint = document.getElementById("play-hint");
        if (!list) { return; }
        var shown = offeredNow(), kinds = {};
        if (hint) {  // what to do next, said at once on every pick (the preview says the move once one is chosen)
            var n = shown.length;
            hint.textContent = decided() || !play.picker ? "" : play.marks.length
                ? "Your pick allows " + plural(n) + ": choose below."
                : n > 1 ? "Pick on the table, or one of the " + plural(n) + " below."
                    : n ? "Pick on the table, or the move below." : "Pick on the table.";
        }
        shown.forEach(function (o) { kinds[o.group || ""] = true; });
        var several = Object.keys(kinds).length > 1;
        list.replaceChildren();
        shown.forEach(function (o) {
            var crafted = has(play.craft, o), chosen = o.value === (crafted ? play.crafted : play.value);
            var b = document.createElement("button");
            b.type = "button";
            b.className = "play-choice" + (chosen ? " chosen" : "");
            b.setAttribute("data-option", o.value);
            if (crafted) { b.setAttribute("data-craft", "yes"); }
            if (o.group) { b.setAttribute("data-group", o.group); }
            b.setAttribute("aria-pressed", chosen ? "true" : "false");
            if (several && o.group && !crafted) {
                var kind = document.createElement("span");
                kind.className = "play-choice-kind";
                kind.textContent = o.group + ": ";
                b.appendChild(kind);
            }
            b.appendChild(document.createTextNode(o.label));
            list.appendChild(b);
        });
    }

    // The move the pick makes, in the picker's words (its crafted form's, once one is chosen), before it is
    // sent; the send button waits for one. No bar while it is not the seat's turn.
    function playPreview(value, options, picker, crafted) {
        newAnswer(picker);
        play.options = picker ? options || [] : [];
        play.value = value;
        play.crafted = crafted || null;
        if (play.pending && radio("#play-option", play.pending)) {  // its kind was just chosen: now the move
            var wanted = radio("#play-option", play.pending);
            play.pending = null;
            if (!wanted.checked) { wanted.click(); }
        }
        renderChoices();
        return preview();
    }

    // The move the picks have chosen: the crafted form chosen, else the form's option chosen, unless the things
    // picked on the table offer other moves than it (the form may have chosen its only option by itself).
    function decided() {
        if (!play.picker) { return null; }
        var form = play.crafted && play.craft.find(function (o) { return o.value === play.crafted; });
        if (form) { return form; }
        var chosen = play.options.find(function (o) { return o.value === play.value; });
        if (!chosen || (play.marks.length && !offeredNow().some(function (o) { return o.value === chosen.value; }))) {
            return null;
        }
        return chosen;
    }

    // [the preview's words, the send button disabled, the bar hidden] (what to pick, and what a pick allows, is
    // the hint's: renderChoices).
    function preview() {
        if (!play.picker) { return ["", true, true]; }
        var move = decided();
        if (!move) { return ["", true, false]; }
        var more = move.value === play.value && play.craft.length ? " (or pick on the table what to craft it with)" : "";
        return ["This pick makes: " + move.label + more, false, false];
    }

    // A pick on the table changes what the picks have chosen: the preview and the send button follow at once.
    function showPreview() {
        var said = preview();
        if (window.dash_clientside.set_props) {
            window.dash_clientside.set_props("play-preview", {children: said[0]});
            window.dash_clientside.set_props("play-send", {disabled: said[1]});
        }
    }

    document.addEventListener("click", function (e) {
        var b = e.target.closest && e.target.closest("#play-choices [data-option]");
        if (!b) { return; }
        var v = b.getAttribute("data-option");
        if (b.getAttribute("data-craft")) {  // a crafted form: the form's crafting box holds it
            var form = radio("#play-craft", v);
            if (form && !form.checked) { form.click(); }
            return;
        }
        var own = radio("#play-option", v);
        if (own) { if (!own.checked) { own.click(); } return; }
        var kind = radio("#play-group", b.getAttribute("data-group") || "");
        if (kind) { play.pending = v; kind.click(); }  // the options follow the kind: playPreview picks it then
    });

    // A player's tendency groups: put each group's HTML in its box once the box shown is the one sent with it
    // (`data-key`: React may not have put the new boxes in the page yet when this runs, nor replaced the old
    // ones of another player). dashboard/tendency_bars.py builds the HTML.
    function tendencyBars(bars) {
        if (!bars || !bars.html) { return window.dash_clientside.no_update; }
        var tries = 0;
        function fill() {
            var waiting = 0;
            Object.keys(bars.html).forEach(function (id) {
                var box = document.getElementById(id);
                if (!box || box.getAttribute("data-key") !== bars.key) { waiting++; return; }
                if (box.getAttribute("data-filled") !== bars.key) {
                    box.innerHTML = bars.html[id];
                    box.setAttribute("data-filled", bars.key);
                }
            });
            if (waiting && tries++ < 400) { setTimeout(fill, 25); }
        }
        fill();
        return bars.key;
    }

    // The charts of a page (dashboard/lazy_charts.py): each drawn by Plotly the first time its box comes near the
    // screen, not all at once as the page opens (most are below the first screen). One watcher per store: a new
    // answer's figures replace the old ones'. The boxes carry the answer's key (`data-key`), as the tendency
    // groups' do, since React may not have put them in the page yet, nor taken the old ones away; React may also
    // keep a box of the same id and only change its key, the old answer's chart still in it.
    var NEAR = 200;  // px: drawn a little before it is seen, so a slow scroll finds it drawn
    var watchers = {};  // by store: {observer, plots drawn}

    function purge(plot) {
        if (plot.__purged) { return; }
        plot.__purged = true;
        if (window.Plotly && window.Plotly.purge) { window.Plotly.purge(plot); }  // (its resize listener too)
        plot.remove();
    }

    function near(box) {
        var at = box.getBoundingClientRect();
        return at.height > 0 && at.bottom > -NEAR && at.top < window.innerHeight + NEAR;
    }

    // Drawn once Plotly is in, if the box is still near the screen once no part of the page waits for an answer
    // (Dash marks those `data-dash-is-loading`): a box seen while the page was still being put together (the
    // trend's chart, answered before the charts above it) is watched again instead of drawn out of sight.
    function drawChart(box, figure, config, key, watcher) {
        var tries = 0;
        function when(Plotly) {
            if (box.getAttribute("data-key") !== key || box.getAttribute("data-drawn") === key) { return; }
            if (document.querySelector("[data-dash-is-loading]") && tries++ < 200) {
                setTimeout(function () { when(Plotly); }, 50);
                return;
            }
            if (!near(box)) { watcher.observer.observe(box); return; }
            box.setAttribute("data-drawn", key);
            var plot = document.createElement("div");
            plot.style.height = "100%";
            box.replaceChildren(plot);
            watcher.plots.push(plot);
            Plotly.newPlot(plot, figure.data || [], figure.layout || {}, config);
        }
        Promise.resolve(window.Plotly).then(function (Plotly) {  // (the loader's promise, then Plotly itself)
            window.requestAnimationFrame(function () { when(Plotly); });
        });
    }

    function lazyCharts(sent) {
        if (!sent || !sent.figures) { return window.dash_clientside.no_update; }
        var before = watchers[sent.store];
        if (before) { before.observer.disconnect(); }
        var watcher = {plots: []};
        var observer = watcher.observer = new IntersectionObserver(function (entries) {
            entries.forEach(function (entry) {
                if (!entry.isIntersecting) { return; }
                observer.unobserve(entry.target);
                drawChart(entry.target, sent.figures[entry.target.id], sent.config, sent.key, watcher);
            });
        }, {rootMargin: NEAR + "px 0px"});
        watchers[sent.store] = watcher;
        var waiting = Object.keys(sent.figures), tries = 0;
        function watch() {
            waiting = waiting.filter(function (id) {
                var box = document.getElementById(id);
                if (!box || box.getAttribute("data-key") !== sent.key) { return true; }
                if (box.getAttribute("data-drawn") !== sent.key) {  // a box kept by React: the old chart goes
                    Array.from(box.children).forEach(purge);
                    box.removeAttribute("data-drawn");
                }
                observer.observe(box);
                return false;
            });
            if (watchers[sent.store] !== watcher) { return; }  // a newer answer came
            if (waiting.length && tries++ < 400) { setTimeout(watch, 25); return; }
            // every box of this answer in the page: the old answer's charts React took away are let go
            if (before) { before.plots.filter(function (p) { return !p.isConnected; }).forEach(purge); }
        }
        watch();
        return sent.key;
    }

    window.dash_clientside = Object.assign({}, window.dash_clientside, {
        digsite: {
            gamesAddress: gamesAddress,
            playersAddress: playersAddress,
            playTable: playTable,
            playOptions: playOptions,
            playPicks: playPicks,
            playPreview: playPreview,
            playCraft: playCraft,
            tendencyBars: tendencyBars,
            lazyCharts: lazyCharts,
        },
    });
})();
