"""The embedding port (base.py) and its adapters."""
