"""replay - scrubbable, verified replays of stored games (docs/REPLAY.md).

A replay runs in an engine of its own, never the live game's: `timeline`
opens a stored journal on a forkable native driver, keeps paused forks as
checkpoints (`forks`), and seeks to any input by forking the nearest one and
replaying the few inputs after it, every boundary compared with the journal.
`manifest` is the persisted, verifiable description of a timeline's
checkpoints; `errors` the typed refusals.
"""

from .errors import ReplayRefused
from .timeline import Timeline

__all__ = ["ReplayRefused", "Timeline"]
