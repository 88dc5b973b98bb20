from .square import Square


class Tax(Square):
    """Income Tax and Super Tax: tax is what landing there costs."""

    def __init__(self, name, tax):
        super().__init__(name)
        self.tax = tax
