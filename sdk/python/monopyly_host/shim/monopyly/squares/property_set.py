class PropertySet(object):
    """The properties of one set, and who owns them. A set is known by
    its set_enum, the set's name ("Brown"... "Station", "Utility"), which
    is also its str."""

    BROWN = "Brown"
    LIGHT_BLUE = "Light blue"
    PURPLE = "Purple"
    ORANGE = "Orange"
    RED = "Red"
    YELLOW = "Yellow"
    GREEN = "Green"
    DARK_BLUE = "Dark blue"
    STATION = "Station"
    UTILITY = "Utility"

    def __init__(self, set_enum):
        self.properties = []
        self.set_enum = set_enum

    def __str__(self):
        return self.set_enum

    def __repr__(self):
        return self.set_enum

    def add_property(self, property):
        self.properties.append(property)

    @property
    def number_of_properties(self):
        return len(self.properties)

    @property
    def number_of_owned_properties(self):
        return len([p for p in self.properties if p.owner is not None])

    @property
    def owners(self):
        """[(player, properties owned, fraction of the set), ...]."""
        counts = {}
        for p in self.properties:
            if p.owner is not None:
                counts[p.owner] = counts.get(p.owner, 0) + 1
        return [(o, n, n / self.number_of_properties) for o, n in counts.items()]

    @property
    def owner(self):
        """The player who owns the whole set, or None."""
        owners = self.owners
        if len(owners) == 1 and owners[0][1] == self.number_of_properties:
            return owners[0][0]
        return None

    @property
    def all_properties_are_unmortgaged(self):
        return not any(p.is_mortgaged for p in self.properties)

    def intersection(self, properties):
        """The set's properties among properties, as a set."""
        return set(self.properties) & set(properties)

    @property
    def can_build_houses(self):
        """Whether the set takes houses at all: not stations or utilities,
        and not hotels everywhere already (ownership is not checked)."""
        if self.set_enum in (PropertySet.STATION, PropertySet.UTILITY):
            return False
        return any(p.number_of_houses < 5 for p in self.properties)

    @property
    def house_price(self):
        if self.set_enum in (PropertySet.STATION, PropertySet.UTILITY):
            return 0
        return self.properties[0].house_price
