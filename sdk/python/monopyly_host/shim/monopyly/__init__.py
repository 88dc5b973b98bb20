"""gopoly's stand-in for Monopyly's ``monopyly`` package.

The gopoly host gives it to a Monopyly contest AI run outside a Monopyly
checkout (inside one, the AI gets the real package). It offers what an
AI reads, under the same module paths and names (``monopyly.game.board``,
``monopyly.squares.street``, ``monopyly.utility``...): the board and its
squares, property sets, players and their state, the deal classes, the
AI base class and the logger. It holds no game: the host builds its
objects with Monopyly's numbers, gives them gopoly's, and keeps them in
step with gopoly's game (monopyly_host/mirror.py). Written for gopoly
from Monopyly's documented interface; no Monopyly code is included.
"""

from .utility import *  # noqa: F401,F403
from .squares import *  # noqa: F401,F403
from .cards import *  # noqa: F401,F403
from .game import *  # noqa: F401,F403
