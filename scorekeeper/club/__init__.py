"""Club nights: seating by standings, placement points, standings and player records.

Pure functions only: the web app stores members, events, rounds, seats and results and asks
these modules what follows from them.
"""

from scorekeeper.club.seating import Seating, SeatingError, seat_round, table_sizes
from scorekeeper.club.standings import Scoring, ScoringError, Standing, placement_points, standings

__all__ = [
    "Scoring", "ScoringError", "Seating", "SeatingError", "Standing", "placement_points",
    "seat_round", "standings", "table_sizes",
]
