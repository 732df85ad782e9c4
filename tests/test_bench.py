"""How ``manage.py bench`` times a figure: its two sides take turns with each other only."""

from __future__ import annotations

from matches.management.commands.bench import WARM_UP, Figure, Side, _measure


def test_a_figures_sides_take_turns_with_each_other_only_one_figure_after_the_other() -> None:
    sent: list[str] = []

    def side(name: str) -> Side:
        def send() -> int:
            sent.append(name)
            return len(sent)

        return Side(name, send)

    bare = side("bare")
    figures = (Figure("save / bare", 10, side("save"), bare), Figure("bare / unwrapped", 2, bare, side("unwrapped")))
    samples = _measure(figures, rounds=4)

    rounds = WARM_UP + 4
    first, second = sent[: 2 * rounds], sent[2 * rounds :]
    assert set(first) == {"save", "bare"}
    assert set(second) == {"bare", "unwrapped"}
    # Who goes first alternates from round to round, so each side follows the other as often as it is followed.
    assert first[:4] == ["bare", "save", "save", "bare"]
    # The shared side counts in each figure only where it was timed beside that figure's other side.
    save_samples, bare_beside_saves = samples["save / bare"]
    bare_beside_unwrapped, _ = samples["bare / unwrapped"]
    assert len(save_samples) == len(bare_beside_saves) == len(bare_beside_unwrapped) == 4
    assert max(bare_beside_saves) < min(bare_beside_unwrapped)
