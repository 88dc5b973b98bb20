from .square import Square


class Chance(Square):
    def __init__(self):
        super().__init__(Square.Name.CHANCE)
