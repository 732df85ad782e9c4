"""How the tests read a download back, as the program it is meant for does."""

import re


def german_figure(cell: str) -> str:
    """A cell of the semicolon CSV as a German spreadsheet reads it: 23,33 is 23.33; no figure has a decimal point."""
    assert not re.fullmatch(r"-?[0-9]+\.[0-9]+", cell), f"{cell} has a decimal point"
    return cell.replace(",", ".") if re.fullmatch(r"-?[0-9]+,[0-9]+", cell) else cell
