"""Whole-store jobs split by game on Dask distributed."""
