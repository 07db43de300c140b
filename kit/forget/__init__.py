"""`kit forget`: erasing what the owner takes back, the receipt that proves it, and the audit that
checks it stayed gone."""
