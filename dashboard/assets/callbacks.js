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

    // The play page's options for the kind of move and the cards picked: the same rule as
    // `dashboard.picker.matching` (a choice that uses cards only when exactly those are picked; one that uses
    // none always); the cards are shown only when the kind of move uses some.
    function playOptions(picker, group, cards) {
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
        return [offered, offered.length === 1 ? offered[0].value : null, hide, hide];
    }

    window.dash_clientside = Object.assign({}, window.dash_clientside, {
        digsite: {
            gamesAddress: gamesAddress,
            playersAddress: playersAddress,
            playTable: playTable,
            playOptions: playOptions,
        },
    });
})();
