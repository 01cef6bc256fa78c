"""The code version of errcat (the data has its own, ``errcat.DATA_VERSION``)."""

__version__ = "0.1.0"
