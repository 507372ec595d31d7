"""Alembic's entry: run the migrations on the connection the store hands over (inside its
transaction), never from a configuration file."""

from __future__ import annotations

from alembic import context

from web.store import schema

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=schema.metadata)
with context.begin_transaction():
    context.run_migrations()
