from .logger import Logger


def render(message, level, indent_level):
    """A line as Monopyly's handlers write it: dashes for the indent, the
    level's name before warnings and worse."""
    indent = "  " * (indent_level - 1) + "- " if indent_level > 0 else ""
    prefix = level[1] + ": " if level[0] >= Logger.WARNING[0] else ""
    return indent + prefix + str(message)


class ConsoleLogHandler(object):
    """Prints the messages at or above a level."""

    def __init__(self, minimum_log_level=Logger.WARNING):
        self.minimum_log_level = minimum_log_level

    def handle_log_message(self, message, level, indent_level):
        if level[0] >= self.minimum_log_level[0]:
            print(render(message, level, indent_level))
