"""Lost Ruins of Arnak in the dashboard: the replay table, the log in names, and the table's stylesheet.

``draw_table(frame)`` draws one ``Queries.replay`` frame from its ``view`` only; ``log_line`` reads one
event as ``domain.arnak.describe`` does but with names for every code (``name_codes`` rewrites a line
``describe`` already wrote); ``CSS`` is the table's stylesheet.
"""

from __future__ import annotations

from dashboard.games.arnak.log import log_line, log_lines, name_codes
from dashboard.games.arnak.style import CSS
from dashboard.games.arnak.table import draw_table

__all__ = ["CSS", "draw_table", "log_line", "log_lines", "name_codes"]
