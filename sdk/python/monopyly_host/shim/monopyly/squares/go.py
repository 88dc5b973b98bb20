from .square import Square


class Go(Square):
    def __init__(self):
        super().__init__(Square.Name.GO)
