"""Database models. Matches, players and games arrive with score keeping; the rules engine needs none."""
