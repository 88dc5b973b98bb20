# A Monopyly-style AI written for gopoly's tests, in the manner of the
# contest's entries: a package exposing its PlayerAIBase subclass.
from .trader_ai import TraderAI
