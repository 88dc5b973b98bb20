from .square import Square


class GoToJailSquare(Square):
    def __init__(self):
        super().__init__(Square.Name.GO_TO_JAIL)
