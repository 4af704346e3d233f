"""Exceptions of the R bridge."""

from __future__ import annotations

__all__ = ["RBridgeUnavailableError", "RBridgeError"]


class RBridgeUnavailableError(ImportError):
    """rpy2, R or sdcMicro is not installed (the message says which, and how to install)."""


class RBridgeError(RuntimeError):
    """R raised an error; ``r_message`` holds R's own message, ``r_warnings`` its warnings."""

    def __init__(self, call: str, r_message: str, r_warnings: tuple[str, ...] = ()):
        self.call = call
        self.r_message = r_message
        self.r_warnings = r_warnings
        super().__init__(f"sdcMicro failed in {call}: {r_message}")
