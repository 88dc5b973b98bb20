"""Logging, as Monopyly's AIs use it."""

from .logger import Logger
from .console_log_handler import ConsoleLogHandler
from .file_log_handler import FileLogHandler

__all__ = ["Logger", "ConsoleLogHandler", "FileLogHandler"]
