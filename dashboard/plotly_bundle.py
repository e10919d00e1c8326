"""The dashboard's graphs drawn by plotly.js's small ``basic`` bundle (bar, pie, scatter), served by the dashboard,
instead of the full bundle (4.8 MB) Dash fetches for its first graph.

Every chart of the dashboard is a bar or a scatter. Running the full bundle took about a second of a players or
aggregates page before any chart was drawn (docs/performance.md, section 10); the basic one (1.2 MB) about a
quarter of that. dcc's graph uses ``window.Plotly`` when it is set, and asks for Dash's bundle only when it is
not: the page sets it to a promise-like object that loads the basic bundle when the first graph asks for it (as
Dash's loading did, so a page without a graph loads no Plotly at all), and the bundle then puts itself in
``window.Plotly``. The file is in ``dashboard/vendor`` (its version and source in its README there).
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import dash
from flask import Response, send_file

VERSION = "4.1.1"  # the plotly Python package's plotly.js (tests/dashboard/test_plotly_bundle.py checks it)
FILE = Path(__file__).parent / "vendor" / f"plotly-basic-{VERSION}.min.js"
ROUTE = f"_digsite/plotly-basic-{VERSION}.min.js"
YEAR = 365 * 24 * 3600  # the version is in the address: a new one is a new address

# ``then`` is what dcc's graph calls (through ``Promise.resolve``) when its first instance mounts; the script
# loaded replaces ``window.Plotly`` with Plotly itself, which is what is resolved.
LOADER_JS = """
(function () {
    if (window.Plotly) { return; }
    var loading = null;
    window.Plotly = {then: function (resolve, reject) {
        if (!loading) {
            loading = new Promise(function (loaded, failed) {
                var script = document.createElement("script");
                script.src = %s;
                script.async = true;
                script.onload = function () { loaded(window.Plotly); };
                script.onerror = failed;
                document.head.appendChild(script);
            });
        }
        return loading.then(resolve, reject);
    }};
})();
"""


def loader_script(app: dash.Dash) -> str:
    """The ``<script>`` for the page's head: ``window.Plotly`` that loads the basic bundle when first asked."""
    url = app.config.requests_pathname_prefix + ROUTE
    return "<script>" + LOADER_JS % json.dumps(url) + "</script>"


def install(app: dash.Dash) -> None:
    """Serve the bundle under the dashboard's prefix, cached by the browser for as long as its version lasts.

    The bytes are read once and served from memory: a file opened per request is left for the garbage collector
    to close when a browser drops the connection mid-download (a page closed while loading), which Python reports
    as an unclosed file.
    """
    data = FILE.read_bytes()
    etag = hashlib.sha256(data).hexdigest()[:32]

    def bundle() -> Response:
        return send_file(io.BytesIO(data), mimetype="text/javascript", max_age=YEAR, etag=etag, conditional=True)

    prefix = app.config.routes_pathname_prefix
    app.server.add_url_rule(prefix + ROUTE, f"{prefix.replace('/', '_')}digsite_plotly_basic", bundle)
