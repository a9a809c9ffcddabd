"""Energy predictions for call sites (see prediction.py for the contract)."""
