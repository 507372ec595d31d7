"""Each table's learned deck profile (web/photos.py), one row per learned card.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deck_profiles",
        sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("deck", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Double, nullable=False),
    )
    op.create_table(
        "deck_cards",
        sa.Column("table_id", sa.Text, sa.ForeignKey("deck_profiles.table_id"),
                  primary_key=True),
        sa.Column("code", sa.Text, primary_key=True),
        sa.Column("model", sa.LargeBinary, nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("learned_at", sa.Double, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("deck_cards")
    op.drop_table("deck_profiles")
