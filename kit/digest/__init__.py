"""The daily memory digest: what Kit learned, changed, merged, expired and refused in a day,
pass by pass, read with `kit digest` and the TUI and sent on Telegram with one-tap buttons."""
