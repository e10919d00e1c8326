"""Clients that play: the bot that plays one seat over HTTP, and stored bot tournaments played through the service."""
