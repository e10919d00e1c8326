"""One module per page: ``layout(app, ctx, params)`` and ``register(app, ctx)`` (its callbacks)."""
