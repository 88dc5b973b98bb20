"""The decks, as far as an AI sees them: each holds its Get Out of Jail
Free card while no player does. gopoly plays the cards."""

from .deck import Deck
from .chance_deck import ChanceDeck
from .community_chest_deck import CommunityChestDeck
from .get_out_of_jail_free import GetOutOfJailFree

__all__ = ["Deck", "ChanceDeck", "CommunityChestDeck", "GetOutOfJailFree"]
