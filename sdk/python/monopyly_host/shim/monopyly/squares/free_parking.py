from .square import Square


class FreeParking(Square):
    def __init__(self):
        super().__init__(Square.Name.FREE_PARKING)
