"""Python 3 as it is today, for a package and AIs written in 2014.

The Monopyly framework and its contest AIs were written for Python 3.3:
they call APIs that later versions removed. ``install`` puts stand-ins
in their place at run time, before the package or an AI is imported,
so that no file of the user's checkout is ever edited.
"""

import importlib.util
import sys
import time
import types


def install():
    """Patch what the 2014 code needs and today's Python lacks."""
    # time.clock went in 3.8; Monopyly's Player.call_ai and several AIs
    # time themselves with it.
    if not hasattr(time, "clock"):
        time.clock = time.perf_counter
    # imp went in 3.12; monopyly.utility imports it (for the tournament's
    # AI loader, which the host never runs).
    try:
        import imp  # noqa: F401
    except ImportError:
        sys.modules["imp"] = _imp_module()


def format_as_text(prefix):
    """Give the classes of the modules under prefix (the monopyly package,
    an AI) the str.format of Python 3.3, where an object without a
    __format__ of its own was formatted as its str: "{:12s}".format(a
    property set) was its name padded, where today it raises."""
    for name, module in list(sys.modules.items()):
        if module is None or not (name == prefix or name.startswith(prefix + ".")):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, type) and getattr(value, "__module__", "").startswith(prefix) \
                    and value.__format__ is object.__format__:
                value.__format__ = _format_as_text


def _format_as_text(self, spec):
    return format(str(self), spec)


def _imp_module():
    """A module with the one function of imp that Monopyly calls."""
    imp = types.ModuleType("imp")

    def load_package(name, path):
        spec = importlib.util.spec_from_file_location(
            name, path + "/__init__.py", submodule_search_locations=[path])
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module

    imp.load_package = load_package
    return imp
