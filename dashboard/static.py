"""The dashboard's page shell and its stylesheet, inlined into the page. Its scripts are Dash assets
(``dashboard/assets/*.js``, shipped as package data), which Dash loads on every page with its own scripts."""

from __future__ import annotations

from pathlib import Path

from dashboard.replay_frames import CHUNK
from dashboard.replay_judgement import CSS as JUDGEMENT_CSS
from dashboard.tendency_bars import CSS as TENDENCY_BARS_CSS

# The one script that must run in the page's head, before Dash's own (assets load with them, too late): the replay's
# first part asked for at once (docs/performance.md, section 10). Linted with the assets (eslint.config.mjs).
REPLAY_EARLY_JS = (Path(__file__).parent / "head" / "replay-early.js").read_text(encoding="utf-8")
if "</" in REPLAY_EARLY_JS:  # (a check that `python -O` keeps, unlike an assert)
    raise ValueError("dashboard/head/replay-early.js must not hold '</': inlined, it would close its <script>")

CSS = """
:root {
    --ink: #1f2933;
    --quiet: #616e7c;
    --line: #e4e7eb;
    --paper: #ffffff;
    --ground: #f5f7fa;
    --accent: #2f6db5;
    --warm: #d1495b;
    --ok: #2e7d4f;
    --night: #2d3250;
    --day: #fdf6e3;
}

* { box-sizing: border-box; }

body {
    margin: 0;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    font-size: 14px;
    color: var(--ink);
    background: var(--ground);
}

.topbar {
    display: flex;
    align-items: center;
    justify-content: space-between;
    padding: 0.6rem 1.5rem;
    background: #1f2933;
    color: #e4e7eb;
}
.brand { font-weight: 700; font-size: 1.15rem; color: #fff; }
.nav-link {
    color: #cbd2d9;
    text-decoration: none;
    margin-left: 1.2rem;
    padding: 0.3rem 0.2rem;
    border-bottom: 2px solid transparent;
}
.nav-link:hover { color: #fff; }
.nav-link.active { color: #fff; border-bottom-color: #edae49; }
.topbar-right { display: flex; align-items: center; gap: 1.5rem; }
.account { display: flex; align-items: center; gap: 0.6rem; font-size: 0.85rem; }
.account .who { color: #9aa5b1; }
.account .account-link { margin-left: 0; }
.inline-form { display: inline; margin: 0; }
.notice-info {
    padding: 0.6rem 0.8rem; border-radius: 6px; background: #eaf2fb; border: 1px solid #c5d9f0; margin: 0 0 1rem;
}
.seat-form { display: flex; align-items: center; gap: 0.6rem; flex-wrap: wrap; max-width: 40rem; }
.seat-form input[type=password] {
    font: inherit; padding: 0.35rem 0.5rem; border: 1px solid #cbd2d9; border-radius: 6px;
}

.page { padding: 1rem 1.5rem 3rem; max-width: 1500px; margin: 0 auto; }
h2 { margin: 0.6rem 0 0.8rem; font-size: 1.4rem; }
h3 { margin: 0 0 0.6rem; font-size: 1rem; }
h4 { margin: 0 0 0.4rem; font-size: 0.9rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--quiet); }

.card {
    background: var(--paper);
    border: 1px solid var(--line);
    border-radius: 8px;
    padding: 0.8rem 1rem;
    margin-bottom: 1rem;
}
.grid-2 { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0 1rem; }
.grid-2 .span-2 { grid-column: span 2; }
@media (max-width: 1000px) { .grid-2 { grid-template-columns: 1fr; } .grid-2 .span-2 { grid-column: span 1; } }

.filters { display: flex; flex-wrap: wrap; gap: 0.6rem 1rem; align-items: flex-end; }
.field { display: flex; flex-direction: column; gap: 0.25rem; }
.field-label { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--quiet); }
.field-label.gap { margin-left: 1rem; }

.quiet { color: var(--quiet); }
.small { font-size: 0.8rem; }
.strong { font-weight: 600; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.nowrap { white-space: nowrap; }
.empty {
    padding: 1.2rem;
    color: var(--quiet);
    background: #fbfcfd;
    border: 1px dashed #cbd2d9;
    border-radius: 8px;
    margin: 0 0 1rem;
}
.summary { margin: 0 0 1rem; font-size: 1rem; }

.btn {
    border: 1px solid #cbd2d9;
    background: #fff;
    color: var(--ink);
    border-radius: 6px;
    padding: 0.35rem 0.8rem;
    cursor: pointer;
    font-size: 0.9rem;
    text-decoration: none;
    display: inline-block;
}
.btn:hover:not(:disabled) { border-color: var(--accent); color: var(--accent); }
.btn:disabled { opacity: 0.45; cursor: default; }
.btn-primary { background: var(--accent); border-color: var(--accent); color: #fff; }
.btn-primary:hover:not(:disabled) { color: #fff; filter: brightness(1.1); }
.btn-small { padding: 0.2rem 0.6rem; font-size: 0.8rem; }

table.grid { width: 100%; border-collapse: collapse; background: var(--paper); }
table.grid th, table.grid td {
    padding: 0.45rem 0.6rem;
    border-bottom: 1px solid var(--line);
    text-align: left;
    vertical-align: middle;
}
table.grid th {
    font-size: 0.75rem;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    color: var(--quiet);
    background: #fbfcfd;
}
table.grid tbody tr:hover { background: #f0f4f8; }
table.grid td.num, table.grid th.num { text-align: right; }
table.grid.compact td { padding: 0.3rem 0.6rem; }
.player-link { color: var(--ink); text-decoration: none; border-bottom: 1px dotted #9aa5b1; }
.player-link:hover { color: var(--accent); }
#games-results { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
#games-results .empty { margin: 0; border: none; }
/* tournaments: the cross table scrolls inside its card on a phone; each game is a link to its replay */
.table-scroll { overflow-x: auto; }
.cross-game { display: block; white-space: nowrap; color: var(--ink); }
.cross-game.in-play { color: var(--quiet); font-style: italic; }
/* fair play: a flagged finding stands out; under it, each move's figures, the mover's row in bold */
table.grid tr.flagged td { background: #fff6e5; }
table.grid td.flag { color: #9a4d00; font-weight: 600; }
table.grid tr.mover td { font-weight: 600; }
.fair-play-moves { margin: 0.4rem 0 0.8rem; }
.fair-play-moves summary { cursor: pointer; padding: 0.3rem 0; }
.fair-play-move { margin: 0.5rem 0 0.8rem 1rem; }
.fair-play-move p { margin: 0.2rem 0; }
@media (max-width: 600px) { .fair-play-move { margin-left: 0; } }
.pager { display: flex; gap: 1rem; align-items: center; justify-content: center; margin-top: 0.8rem; }

/* replay: at 1440x900 the controls and the whole table fit on the screen; on a phone nothing overflows */
.replay-head { margin-bottom: 0.5rem; }
.replay-title { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1rem; }
.replay-head h2 { margin: 0.1rem 0; font-size: 1.2rem; overflow-wrap: anywhere; }
.controls { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; margin: 0.15rem 0; }
.replay-controls { padding: 0.5rem 0.8rem; margin-bottom: 0.6rem; }
.version-label { margin-left: 0.6rem; font-size: 0.95rem; }
.slider { padding: 0.1rem 0; }
#replay-slider { width: 100%; accent-color: var(--accent); }
.seats { display: flex; flex-wrap: wrap; gap: 0.3rem; }
.seat-choice.active { background: var(--accent); border-color: var(--accent); color: #fff; }
.seat-choice.active:hover:not(:disabled) { color: #fff; }
.permalink { margin-left: auto; color: var(--accent); }
.verify { margin-top: 0.3rem; display: flex; flex-wrap: wrap; gap: 0.3rem; align-items: center; }
.verify details { width: 100%; }
.badge { display: inline-block; padding: 0.15rem 0.55rem; border-radius: 999px; font-weight: 600; font-size: 0.85rem; }
.badge-small { font-weight: 500; font-size: 0.75rem; }
.badge-ok { background: #e3f4ea; color: var(--ok); }
.badge-bad { background: #fde8ea; color: #a4161a; }

.replay-grid { display: grid; grid-template-columns: minmax(0, 1fr) 360px; gap: 0.8rem; align-items: start; }
@media (max-width: 1100px) { .replay-grid { grid-template-columns: minmax(0, 1fr); } }
.replay-side .card { padding: 0.5rem 0.7rem; margin-bottom: 0.6rem; }
.move-list { max-height: 300px; overflow-y: auto; display: flex; flex-direction: column; font-size: 0.8rem; }
.move-row {
    display: grid; grid-template-columns: 2.2rem 6.5rem minmax(0, 1fr) auto; gap: 0.4rem; align-items: baseline;
    text-align: left; font: inherit; color: inherit; background: none; border: 0; border-bottom: 1px solid #f0f2f4;
    padding: 0.15rem 0.3rem; cursor: pointer; width: 100%;
}
.move-row:hover { background: #f0f4f8; }
.move-row.current { background: #fff4d6; box-shadow: inset 3px 0 0 #edae49; font-weight: 600; }
.move-no { color: var(--quiet); font-variant-numeric: tabular-nums; text-align: right; }
.move-who, .move-what { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.move-think { color: var(--quiet); font-variant-numeric: tabular-nums; white-space: nowrap; }
.log-card { margin-bottom: 1rem; }
.log {
    display: flex;
    flex-direction: column-reverse;
    max-height: 300px;
    overflow-y: auto;
    font-size: 0.8rem;
    line-height: 1.3;
}
.log-entry { display: flex; gap: 0.5rem; padding: 0.2rem 0.3rem; border-bottom: 1px solid #f0f2f4; }
.log-version { color: var(--quiet); min-width: 2rem; font-variant-numeric: tabular-nums; }
.log-current { background: #fff4d6; border-left: 3px solid #edae49; }
.vp-card { padding: 0.4rem; }
@media (max-width: 600px) {
    .page { padding: 0.6rem 0.5rem 2rem; }
    .topbar { flex-wrap: wrap; padding: 0.5rem 0.6rem; gap: 0.3rem; }
    .topbar-right { flex-wrap: wrap; gap: 0.5rem; }
    .nav-link { margin-left: 0.6rem; }
    #nav { display: flex; flex-wrap: wrap; row-gap: 0.2rem; }  /* five sections do not fit one phone's line */
    .version-label { margin-left: 0; width: 100%; }
    .permalink { margin-left: 0; }
    .move-row { grid-template-columns: 2rem 5rem minmax(0, 1fr) auto; }
}

/* Playing from a seat: the cards to pick look like cards, a picked one stands out. */
.play-status { font-size: 1rem; margin-top: 0.3rem; }
.play-cards { display: flex; flex-wrap: wrap; gap: 0.4rem; margin: 0.3rem 0 0.6rem; }
.play-cards label { border: 1px solid var(--line); border-radius: 6px; padding: 0.35rem 0.55rem; cursor: pointer;
    background: var(--day); }
.play-cards label:has(input:checked) { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent); }
.play-cards input { margin-right: 0.3rem; }
.play-groups { display: flex; flex-wrap: wrap; gap: 0.2rem 0.8rem; margin-bottom: 0.5rem; }
.play-options { display: flex; flex-direction: column; gap: 0.25rem; margin: 0.3rem 0 0.6rem;
    max-height: 18rem; overflow-y: auto; }
.play-message { margin-top: 0.5rem; }
.play-refused { color: var(--warm); font-weight: 600; }
.play-done { color: var(--ok); }
.play-cta { margin-left: 0.6rem; }
/* Picking on the table: a pickable card is a button (outlined; the focus ring shows where the keyboard is), a
   picked one is lifted and ringed; big enough to tap. The bar under the table says the move and sends it. */
#play-table .pickable { cursor: pointer; outline: 2px dashed var(--accent); outline-offset: 2px;
    min-height: 2.2rem; min-width: 2.2rem; touch-action: manipulation; }
#play-table .pickable[aria-pressed="true"] { outline-style: solid; box-shadow: 0 0 0 4px var(--accent);
    transform: translateY(-3px); }
#play-table .pickable:focus-visible { outline: 3px solid var(--ink); outline-offset: 3px; }
/* The bar stays at the foot of the screen while the table scrolls under it (a tall table at 390 px): the moves a
   pick allows are in sight of the piece picked, a long list of them scrolls inside the bar. */
.play-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem; margin: 0.6rem 0;
    position: sticky; bottom: 0; z-index: 20; background: var(--paper); border-top: 2px solid var(--accent);
    padding: 0.5rem 0.4rem; box-shadow: 0 -4px 10px rgba(0, 0, 0, 0.08); }
.play-bar[hidden] { display: none; }
.play-preview { flex: 1 1 16rem; font-weight: 600; }
.play-hint { color: var(--quiet); }
.play-hint:empty, .play-preview:empty { display: none; }
.play-changed { margin-top: 0.3rem; font-size: 0.9rem; }
/* On a phone the last move's words (a solo rival's turn is told with it) keep to three lines: the table comes
   first; the log has them whole. */
@media (max-width: 600px) {
    .play-changed { display: -webkit-box; -webkit-line-clamp: 3; line-clamp: 3; -webkit-box-orient: vertical;
        overflow: hidden; }
}
.play-choices { display: flex; flex-wrap: wrap; gap: 0.4rem; flex-basis: 100%; max-height: 32vh; overflow-y: auto; }
.play-choice-kind { color: var(--quiet); font-size: 0.85em; }
.play-choice { border: 1px solid var(--line); border-radius: 6px; padding: 0.45rem 0.7rem; background: #fff;
    cursor: pointer; text-align: left; min-height: 2.4rem; }
.play-choice.chosen { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent); }
.play-choice:focus-visible { outline: 3px solid var(--ink); outline-offset: 2px; }
tr.idle { background: #fff4e5; }
.idle-flag { color: var(--warm); font-weight: 600; margin-left: 0.3rem; }
"""

ICON = (
    "data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 16 16%22%3E"
    "%3Crect width=%2216%22 height=%2216%22 rx=%223%22 fill=%22%23edae49%22/%3E%3C/svg%3E"
)
# The page's icon is inline: the browser asks for a page's icon again whenever the address changes, and the
# replay changes it on every step, which must not cost a request.
INDEX = (
    """<!DOCTYPE html>
<html lang="en">
    <head>
        {%metas%}
        <title>{%title%}</title>
        <link rel="icon" href='"""
    + ICON
    + """'>
        {%css%}
        <style>"""
    + CSS
    + TENDENCY_BARS_CSS
    + JUDGEMENT_CSS
    + """</style>
        <script data-chunk="""
    + f'"{CHUNK}">'
    + REPLAY_EARLY_JS
    + """</script>
    </head>
    <body>
        {%app_entry%}
        <footer>
            {%config%}
            {%scripts%}
            {%renderer%}
        </footer>
    </body>
</html>
"""
)
