from .square import Square


class Jail(Square):
    def __init__(self):
        super().__init__(Square.Name.JAIL)
