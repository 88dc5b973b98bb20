from .console_log_handler import render
from .logger import Logger


class FileLogHandler(object):
    """Writes the messages at or above a level to a file."""

    def __init__(self, filename, minimum_log_level=Logger.WARNING):
        self.file = open(filename, "w")
        self.minimum_log_level = minimum_log_level

    def handle_log_message(self, message, level, indent_level):
        if level[0] >= self.minimum_log_level[0]:
            self.file.write(render(message, level, indent_level) + "\n")
            self.file.flush()
