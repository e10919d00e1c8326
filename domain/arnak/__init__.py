"""Lost Ruins of Arnak."""
