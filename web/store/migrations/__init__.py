"""The store's Alembic migrations, run at start-up by ``web.store.database.Database.migrate``.

A new revision is a file in ``versions/`` named ``NNNN_what_it_does.py`` with ``revision =
"NNNN"`` and ``down_revision`` the newest before it; it must work on SQLite and PostgreSQL, and
``web/store/schema.py`` (or the module owning the new tables) describes the result, which
``tests/test_store_migrations.py`` compares with what the migrations build.
"""
