"""Serving over HTTP: the push channel's plumbing, the waits a server process holds, the WSGI entry point and
gunicorn's settings, and the throttle of wrong secrets every door asks."""
