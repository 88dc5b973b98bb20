from .board import Board


class GameState(object):
    """What the AIs are shown of a game: the board, the players still in
    it (Player objects, in turn order) and those who went bankrupt."""

    def __init__(self):
        self.board = Board(self)
        self.players = []
        self.bankrupt_players = []

    @property
    def number_of_players(self):
        return len(self.players)
