"""The game's state as an AI sees it, the AI base class and the deals."""

from .board import Board
from .player import Player
from .player_ai_base import PlayerAIBase
from .player_state import PlayerState
from .deal_proposal import DealProposal
from .deal_response import DealResponse
from .deal_result import DealResult

__all__ = ["Board", "Player", "PlayerAIBase", "PlayerState", "DealProposal", "DealResponse", "DealResult"]
