"""The Arnak table's stylesheet, as a string for the page's inline CSS. Every rule is scoped to ``.arnak-table``.

Wide screens: the players' boards in a row under the status line, then the board beside the card row and research
track.
Narrow screens (a phone): everything stacks and wraps; nothing is wider than the screen.
"""

from __future__ import annotations

CSS = """
.arnak-table {
    --a-line: #e2ddd0; --a-paper: #fffdf8; --a-ground: #f3efe4; --a-ink: #2b2a26; --a-quiet: #6f6a5d;
    --a-accent: #b5532a;
    display: flex; flex-direction: column; gap: 6px;
    font-size: 12px; line-height: 1.3; color: var(--a-ink);
    min-width: 0; max-width: 100%;
    overflow-wrap: anywhere;
}
.arnak-table * { box-sizing: border-box; }
.arnak-table .q { color: var(--a-quiet); }
.arnak-table .num { text-align: right; font-variant-numeric: tabular-nums; }
.arnak-panel {
    background: var(--a-paper); border: 1px solid var(--a-line); border-radius: 6px; padding: 5px 7px; min-width: 0;
}
.arnak-h { font-weight: 700; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--a-accent);
    margin-right: 6px; }
.arnak-sub { font-weight: 600; margin-right: 4px; }
.arnak-subhead { display: flex; flex-wrap: wrap; gap: 2px 8px; align-items: baseline; margin: 3px 0 2px; }
.arnak-line { display: flex; flex-wrap: wrap; gap: 3px; align-items: center; margin-top: 3px; }

/* status */
.arnak-status { display: flex; flex-wrap: wrap; gap: 4px; }
.arnak-pill { border-radius: 10px; padding: 1px 8px; background: #ece6d6; white-space: nowrap; max-width: 100%;
    overflow: hidden; text-overflow: ellipsis; }
.arnak-pill-wrap { white-space: normal; }
.arnak-pill-round { background: var(--a-accent); color: #fff; font-weight: 700; }
.arnak-pill-turn { background: #ffd54a; font-weight: 700; }
.arnak-pill-win { background: #2e7d4f; color: #fff; font-weight: 700; }
.arnak-pill-quiet { background: transparent; border: 1px solid var(--a-line); color: var(--a-quiet); }

/* layout */
.arnak-main { display: grid; grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr); gap: 6px; }
.arnak-left { display: flex; flex-direction: column; gap: 6px; min-width: 0; }
.arnak-centre { display: flex; flex-direction: column; gap: 6px; min-width: 0; }
.arnak-players { display: grid; gap: 6px; grid-template-columns: repeat(auto-fit, minmax(min(100%, 220px), 1fr)); }
/* The players' boards come first, under the status line: below the board and the market they started at about
   780 px in a replay at 1440x900, so only their names showed on the first screen. */
.arnak-status { order: 0; }
.arnak-players { order: 1; }
.arnak-main { order: 2; }
.arnak-travel, .arnak-free, .arnak-blocked-x, .arnak-res, .arnak-cost, .arnak-vp, .arnak-token, .arnak-meeple,
.arnak-tag, .arnak-slot { white-space: nowrap; overflow-wrap: normal; }
@media (max-width: 900px) {
    .arnak-main { grid-template-columns: minmax(0, 1fr); }
}

/* board */
.arnak-camps { display: grid; grid-template-columns: repeat(5, minmax(0, 1fr)); gap: 4px; }
.arnak-sites { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 4px; }
@media (max-width: 600px) {
    .arnak-camps, .arnak-sites { grid-template-columns: repeat(2, minmax(0, 1fr)); }
}
.arnak-loc { border: 1px solid var(--a-line); border-radius: 5px; padding: 3px 4px; min-width: 0; background: #fbf8ef; }
.arnak-camp { background: #f1f4ea; }
.arnak-undiscovered { background: repeating-linear-gradient(135deg, #f4efe2, #f4efe2 6px, #efe8d6 6px, #efe8d6 12px); }
.arnak-discovered { background: #eef5fb; border-color: #b7d0e6; }
.arnak-loc-name { font-weight: 600; font-size: 11px; }
.arnak-site-head { display: flex; justify-content: space-between; gap: 3px; align-items: center; flex-wrap: wrap; }
.arnak-spaces { display: flex; gap: 3px; flex-wrap: wrap; margin-top: 2px; }
.arnak-space { display: inline-flex; gap: 2px; align-items: center; border: 1px dashed #c9c1ab; border-radius: 4px;
    padding: 0 3px; min-height: 18px; flex-wrap: wrap; max-width: 100%; }
.arnak-space-blocked { background: #ddd6c4; border-style: solid; color: #7d7664; }
.arnak-space-taken { border-style: solid; border-color: #8a7f62; background: #fff; }
.arnak-blocked-x { font-size: 10px; text-transform: uppercase; }
.arnak-free { color: #a59d87; font-size: 10px; }
.arnak-tile { font-size: 11px; margin-top: 2px; font-weight: 600; color: #1f4f7a; }
.arnak-site-idols { display: flex; flex-wrap: wrap; gap: 3px; align-items: center; margin-top: 2px; font-size: 11px; }

/* tokens and chips */
.arnak-meeple { display: inline-flex; align-items: center; justify-content: center; width: 16px; height: 16px;
    border-radius: 50% 50% 3px 3px; color: #fff; font-weight: 700; font-size: 10px; }
.arnak-c-red { background: #c0392b; } .arnak-c-green { background: #2e8b57; } .arnak-c-blue { background: #2f6fb5; }
.arnak-c-yellow { background: #d4a017; } .arnak-c-grey { background: #7a7a7a; }
.arnak-b-red { border-top: 4px solid #c0392b; } .arnak-b-green { border-top: 4px solid #2e8b57; }
.arnak-b-blue { border-top: 4px solid #2f6fb5; } .arnak-b-yellow { border-top: 4px solid #d4a017; }
.arnak-b-grey { border-top: 4px solid #7a7a7a; }
.arnak-swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; }
.arnak-travels { display: inline-flex; gap: 2px; }
.arnak-travel { font-size: 9px; text-transform: uppercase; border-radius: 3px; padding: 0 3px; color: #fff;
    letter-spacing: .02em; }
.arnak-t-boot { background: #8d6e63; } .arnak-t-car { background: #5d7f3a; } .arnak-t-ship { background: #2f6fb5; }
.arnak-t-plane { background: #7b4fa0; }
.arnak-res { display: inline-flex; gap: 3px; align-items: baseline; border-radius: 10px; padding: 0 5px;
    border: 1px solid transparent; }
.arnak-res b { font-size: 13px; }
.arnak-res-name { font-size: 9px; text-transform: uppercase; }
.arnak-r-coin { background: #fbe7a1; }
.arnak-r-compass { background: #d7e7f7; } .arnak-r-tablet { background: #e0dccd; }
.arnak-r-arrowhead { background: #f6d2c3; } .arnak-r-jewel { background: #d7f0e3; }
.arnak-zero { opacity: .45; }
.arnak-card { display: inline-flex; flex-wrap: wrap; gap: 3px; align-items: center; border: 1px solid #cfc6ae;
    border-radius: 4px; padding: 1px 4px; background: #fff; max-width: 100%; }
.arnak-card-name { font-weight: 600; }
.arnak-k-artifact { border-color: #b08a3e; background: #fdf3dc; }
.arnak-k-item { border-color: #7c9a5c; background: #f0f6e8; }
.arnak-k-fear { border-color: #8e3b3b; background: #f6e1e1; }
.arnak-k-starter { background: #f4f4f4; }
.arnak-cost { font-size: 10px; border-radius: 3px; padding: 0 3px; }
.arnak-vp { font-size: 10px; color: #5a3d8a; font-weight: 700; }
.arnak-idol { font-size: 10px; border-radius: 3px; padding: 0 4px; background: #f3d9a4; border: 1px solid #c9a35c; }
.arnak-idol-down { background: #e6e0f0; border-color: #9b8fb8; font-style: italic; }
.arnak-idol-hidden { background: #e8e4d8; border-color: #b9b29e; }
.arnak-guardian { display: inline-block; font-size: 10px; border-radius: 3px; padding: 0 4px; margin-top: 2px;
    background: #5b3a6e; color: #fff; }
.arnak-guardian.arnak-used { background: #a995b5; }
.arnak-row { display: flex; flex-wrap: wrap; gap: 3px; align-items: center; }
.arnak-staff { font-weight: 700; font-size: 10px; text-transform: uppercase; color: #fff; background: #3c3a55;
    border-radius: 8px; padding: 2px 6px; }
.arnak-piles { display: flex; flex-wrap: wrap; gap: 2px 10px; margin-top: 3px; font-size: 11px; }

/* research track */
.arnak-track { display: flex; flex-direction: column; gap: 2px; }
.arnak-rrow { display: flex; flex-wrap: wrap; gap: 3px; align-items: center; padding: 1px 3px; border-radius: 4px;
    background: #f5f0fa; min-height: 20px; }
.arnak-temple { background: #efe2c2; }
.arnak-row-name { font-weight: 700; width: 44px; flex: none; }
.arnak-temple .arnak-row-name { width: auto; }
.arnak-row-vp { font-size: 10px; color: #5a3d8a; width: 46px; flex: none; }
.arnak-rspace { display: inline-flex; flex-wrap: wrap; gap: 2px; align-items: center; border: 1px solid #d9cce6;
    border-radius: 4px; padding: 0 3px; background: #fff; min-height: 18px; min-width: 24px; }
.arnak-token { font-size: 9px; color: #fff; border-radius: 8px; padding: 0 4px; font-weight: 700; }
.arnak-notebook { border-radius: 2px; }
.arnak-bonus { font-size: 10px; background: #fff3c4; border: 1px solid #e0c860; border-radius: 3px; padding: 0 3px; }
.arnak-temple-tile, .arnak-assistant-stack { font-size: 11px; border: 1px solid var(--a-line); border-radius: 4px;
    padding: 0 4px; background: #fff; }

/* players */
.arnak-phead { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; font-size: 13px; }
.arnak-tag { font-size: 10px; border-radius: 8px; padding: 0 6px; background: #ece6d6; text-transform: uppercase; }
.arnak-tag-act { background: #ffd54a; font-weight: 700; }
.arnak-tag-last { background: #dbe7f6; color: #1d4f91; }
.arnak-tag-quiet { background: transparent; border: 1px solid var(--a-line); color: var(--a-quiet); }
.arnak-acting { box-shadow: 0 0 0 3px #ffd54a; }
.arnak-resources { display: flex; flex-wrap: wrap; gap: 3px; margin-top: 3px; align-items: center; }
.arnak-slots { display: inline-flex; flex-wrap: wrap; gap: 2px; align-items: center; margin-left: 6px; }
.arnak-slot { font-size: 10px; border: 1px dashed #b9b29e; border-radius: 3px; padding: 0 3px; }
.arnak-slot-full { border-style: solid; background: #f3d9a4; }
.arnak-assistant { font-size: 10px; border-radius: 3px; padding: 0 4px; border: 1px solid #b9b9b9;
    background: #f1f1f1; }
.arnak-assistant.arnak-gold { background: #fbe7a1; border-color: #c9a35c; }
.arnak-assistant.arnak-exhausted { opacity: .6; text-decoration: line-through; }
.arnak-hidden { font-style: italic; color: var(--a-quiet); }
.arnak-strong { font-weight: 600; }
.arnak-rival-tile { font-size: 10px; border-radius: 3px; padding: 0 4px; background: #e4e4e4; }

/* score */
.arnak-score { border-collapse: collapse; font-size: 11px; }
.arnak-deck-details { display: inline; }
.arnak-deck-details summary { display: inline; cursor: pointer; color: var(--a-accent); font-size: 11px; }
.arnak-deck-details[open] { display: block; }
.arnak-scores { overflow-x: auto; }
.arnak-score th, .arnak-score td { padding: 1px 4px; border-bottom: 1px solid var(--a-line); text-align: left; }
.arnak-score th, .arnak-score td { overflow-wrap: normal; word-break: normal; }
.arnak-score td.num { white-space: nowrap; }
.arnak-score th { font-size: 10px; text-transform: uppercase; color: var(--a-quiet); }
.arnak-score .num { text-align: right; }
.arnak-winner { background: #e5f3ea; font-weight: 600; }
.arnak-total { font-size: 13px; }
.arnak-score td:first-child { white-space: nowrap; }
/* Narrow by the panel's own width (the replay page's left column, a phone), not only the window's. */
.arnak-scores { container-type: inline-size; }
@container (max-width: 600px) {
    .arnak-score th, .arnak-score td { padding: 1px 2px; }
    .arnak-score th { font-size: 9px; letter-spacing: 0; text-transform: none; }
}
@media (max-width: 600px) {
    .arnak-score th, .arnak-score td { padding: 1px 2px; }
    .arnak-score th { font-size: 9px; letter-spacing: 0; text-transform: none; }
}
"""
