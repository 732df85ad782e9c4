"""How ``make bench`` times a figure: its two sides take turns with each other only, strictly one after the
other."""

from __future__ import annotations

from bench.figures import WARM_UP, Figure, Side, _measure


def _recording(sent: list[str], name: str, cost: dict[str, int]) -> Side:
    """A side whose "time" is what it costs right after the side sent before it (``cost["after name"]``)."""

    def send() -> int:
        before = sent[-1] if sent else ""
        sent.append(name)
        return cost.get(f"{name} after {before}", 1)

    return Side(name, send)


def test_a_figures_sides_take_turns_with_each_other_only_one_figure_after_the_other() -> None:
    sent: list[str] = []
    bare = _recording(sent, "bare", {})
    figures = (
        Figure("save / bare", 10, _recording(sent, "save", {}), bare),
        Figure("bare / unwrapped", 2, bare, _recording(sent, "unwrapped", {})),
    )
    samples = _measure(figures, rounds=4)

    rounds = WARM_UP + 4
    first, second = sent[: 2 * rounds], sent[2 * rounds :]
    assert first == ["save", "bare"] * rounds
    assert second == ["bare", "unwrapped"] * rounds
    save_samples, bare_beside_saves = samples["save / bare"]
    bare_beside_unwrapped, _ = samples["bare / unwrapped"]
    assert len(save_samples) == len(bare_beside_saves) == len(bare_beside_unwrapped) == 4


def test_every_sample_of_a_side_is_taken_right_after_the_other_side() -> None:
    """A request costs more right after another that filled the processor's caches with its own work. Were every
    other sample of a side taken right after itself, its samples would fall into two groups and the median between
    them, wherever the few samples nearest the middle lay."""
    sent: list[str] = []
    cost = {"bare after save": 40, "bare after bare": 20, "save after bare": 400, "save after save": 380}
    figure = Figure("save / bare", 10, _recording(sent, "save", cost), _recording(sent, "bare", cost))
    saves, bares = _measure((figure,), rounds=9)["save / bare"]
    assert set(bares) == {40}
    assert set(saves) == {400}
