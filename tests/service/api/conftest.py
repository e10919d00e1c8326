"""API fixtures: the Flask app around the ``service`` fixture (SQLite and PostgreSQL), and its test client."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api import create_app
from service.commands.application import Digsite


@pytest.fixture
def app(service: Digsite) -> Flask:
    return create_app(service=service)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
