from .square import Square


class CommunityChest(Square):
    def __init__(self):
        super().__init__(Square.Name.COMMUNITY_CHEST)
