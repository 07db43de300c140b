"""Time in text: the days a text names, in the forms people write them."""
