"""A round's seat links as organisers hand them out: a CSV file, and a printable HTML sheet with a QR code per seat
(drawn by ``segno``: a QR code is a standard (ISO/IEC 18004) better left to a library)."""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Mapping, Sequence
from typing import Any

import segno

COLUMNS = ("round", "table", "seat", "name", "player", "game", "url")


def links_csv(links: Sequence[Mapping[str, Any]]) -> str:
    """One line per seat, with a header; seats numbered from 1 as people count them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for link in links:
        writer.writerow([link["seat"] + 1 if c == "seat" else link[c] for c in COLUMNS])
    return out.getvalue()


def links_sheet(title: str, links: Sequence[Mapping[str, Any]]) -> str:
    """A page to print and cut: a card per seat (table, seat, player, the QR code of the link and the link)."""
    cards = []
    for link in links:
        qr = segno.make(link["url"], error="m").svg_inline(scale=3)
        cards.append(
            '<div class="card">'
            f"<h2>Table {link['table']} · seat {link['seat'] + 1}</h2>"
            f'<p class="who">{html.escape(link["name"])}</p>{qr}'
            f'<p class="url">{html.escape(link["url"])}</p></div>'
        )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>"
        "body{font-family:sans-serif;margin:1cm}.cards{display:flex;flex-wrap:wrap;gap:.5cm}"
        ".card{border:1px dashed #888;padding:.4cm;width:6cm;break-inside:avoid;page-break-inside:avoid}"
        ".card h2{font-size:1.1em;margin:0}.who{font-weight:bold}.url{font-size:.6em;word-break:break-all}"
        "</style></head><body>"
        f"<h1>{html.escape(title)}</h1><p>Each seat's link is its player's key to the game: hand each card to its "
        "player only.</p>"
        f'<div class="cards">{"".join(cards)}</div></body></html>'
    )
