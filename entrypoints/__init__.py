"""The composition root of the whole of Digsite: the ``digsite`` command puts the service's commands
(``service.cli``) and the ones that also need the dashboard (``dashboard``, ``up``) together. ``service`` never
imports ``dashboard``; only this package knows both."""
