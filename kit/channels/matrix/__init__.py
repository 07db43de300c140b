"""Kit on Matrix: the owner's direct rooms with Kit's account on their homeserver."""
