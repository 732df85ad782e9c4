import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_imports_without_django() -> None:
    code = (
        "import sys\n"
        "import matches.engine\n"
        "from matches.engine import calculate, GameEntry\n"
        "calculate('skat', GameEntry('clubs', matadors=1, declarer_card_points=61))\n"
        "loaded = sorted(name for name in sys.modules if name.split('.')[0] in {'django', 'rest_framework'})\n"
        "print(','.join(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, env={"PATH": ""}
    )
    assert done.stdout.strip() == ""
