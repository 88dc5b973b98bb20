class Logger(object):
    """Hands each message to the registered handlers (none by default,
    so that a message goes nowhere), with the indent level as a hint."""

    # Levels are (rank, name) pairs: handlers compare the ranks.
    DEBUG = (0, "Debug")
    INFO = (1, "Info")
    INFO_PLUS = (3, "InfoPlus")
    WARNING = (4, "Warning")
    ERROR = (5, "Error")
    FATAL = (6, "Fatal")

    _handlers = set()
    _indent_level = 0

    @staticmethod
    def log(message, level=INFO):
        for handler in list(Logger._handlers):
            handler.handle_log_message(message, level, Logger._indent_level)

    @staticmethod
    def add_handler(handler):
        Logger._handlers.add(handler)

    @staticmethod
    def remove_handler(handler):
        Logger._handlers.remove(handler)

    @staticmethod
    def indent():
        Logger._indent_level += 1

    @staticmethod
    def dedent():
        Logger._indent_level = max(0, Logger._indent_level - 1)
