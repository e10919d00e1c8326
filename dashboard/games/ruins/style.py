"""The Ruins table's stylesheet (``CSS``: ``dashboard.games.stylesheet`` adds it to the page)."""

CSS = """
.ruins-table {
    background: var(--paper);
    border: 1px solid var(--line);
    border-radius: 8px;
    padding: 0.8rem 1rem;
    margin-bottom: 1rem;
}
.table-status { display: flex; flex-wrap: wrap; gap: 0.4rem; margin-bottom: 0.8rem; }
.pill { background: #eef2f7; border-radius: 999px; padding: 0.2rem 0.7rem; font-size: 0.85rem; }
.pill-round { background: var(--night); color: #fff; font-weight: 600; }
.pill-turn { background: #fff4d6; }
.pill-win { background: #e3f4ea; color: var(--ok); font-weight: 600; }
.pill-quiet { background: transparent; border: 1px solid var(--line); color: var(--quiet); }

.table-centre {
    display: grid;
    grid-template-columns: minmax(0, 1fr) minmax(0, 1.3fr);
    gap: 1rem;
    margin-bottom: 0.8rem;
}
@media (max-width: 800px) { .table-centre { grid-template-columns: 1fr; } }
.panel { border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem 0.7rem; }
.to-beat { font-weight: 600; margin-bottom: 0.4rem; }
.market { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 110px), 1fr)); gap: 0.4rem; }
.market-slot { border: 1px solid var(--line); border-radius: 6px; padding: 0.4rem 0.5rem; background: #fbfcfd; }
.market-slot.empty { opacity: 0.6; }
.market-slot .price { font-size: 0.75rem; color: #8a5a00; font-weight: 600; }
.market-slot .effect { font-size: 1.1rem; font-weight: 700; }

table.scoreboard { width: 100%; border-collapse: collapse; margin-bottom: 0.8rem; }
table.scoreboard th {
    font-size: 0.72rem;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    color: var(--quiet);
    text-align: left;
    padding: 0.25rem 0.5rem;
    border-bottom: 1px solid var(--line);
}
table.scoreboard td { padding: 0.3rem 0.5rem; border-bottom: 1px solid #f0f2f4; }
table.scoreboard td.vp { font-size: 1.05rem; font-weight: 700; text-align: left; }
table.scoreboard td.num { text-align: left; }
.row-acting { background: #fff4d6; box-shadow: inset 3px 0 0 #edae49; font-weight: 600; }
.row-last td:last-child { color: var(--accent); }
.hand-acting { border-color: #edae49; box-shadow: 0 0 0 2px #fff4d6; }
.pill-small { font-size: 0.7rem; padding: 0.05rem 0.45rem; margin-left: 0.4rem; }
.chip-last { outline: 2px solid var(--accent); outline-offset: 1px; }
.effect-text { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.torch-lit { color: #e07a00; letter-spacing: 1px; }
.score-wrap { overflow-x: auto; }
@media (max-width: 600px) {
    .ruins-table { padding: 0.5rem; }
    table.scoreboard th, table.scoreboard td { padding: 0.25rem 0.3rem; }
    table.scoreboard th:first-child, table.scoreboard td:first-child, .torch-glyphs { display: none; }
}
.torch-out { color: #cbd2d9; letter-spacing: 1px; }

.hands { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 280px), 1fr)); gap: 0.5rem; }
.hand { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.6rem; }
.hand-title { margin-bottom: 0.35rem; }
.hidden-hand { color: var(--quiet); font-style: italic; padding: 0.4rem 0; }
.chips { display: flex; flex-wrap: wrap; gap: 0.3rem; }
.crafted-panel { margin-top: 0.8rem; }
.crafted-panel summary { cursor: pointer; color: var(--quiet); }
.crafted {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 300px), 1fr));
    gap: 0.3rem 1rem;
    margin-top: 0.5rem;
}
.chip {
    display: inline-flex;
    align-items: center;
    gap: 0.2rem;
    border-radius: 5px;
    padding: 0.15rem 0.4rem;
    border: 1px solid #d9cfa8;
    background: var(--day);
    font-size: 0.85rem;
    cursor: default;
}
.chip-night { background: var(--night); color: #f0f2ff; border-color: var(--night); }
.chip .rank { font-weight: 700; font-size: 0.95rem; }
.chip .side { opacity: 0.8; }
.sleeve { font-size: 0.7rem; background: #e6eefb; color: #1d4f91; border-radius: 3px; padding: 0 0.25rem; }
.chip-night .sleeve { background: #4a5280; color: #fff; }
.claim { font-size: 0.7rem; background: #fde8ea; color: #a4161a; border-radius: 3px; padding: 0 0.25rem; }
"""
