"""Per-game parts of the dashboard: each game's table renderer and log narration live in their own package."""
