"""The model port (base.py) and its adapters."""
