"""The owner's data going in and out: export, import, restore, backup."""
