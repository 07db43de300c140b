"""Notes: documents the owner gives Kit (a packing list, a recipe, meeting notes, a brief).

Not facts and not events: they stay out of every prompt. The model sees their names and
one-line descriptions, and reads them on demand with tools (`list_notes`, `read_note`,
`grep_notes`); `search_memory` finds their sections. `text.py` decides what a document must be
to become a note and how it is cut, `store.py` keeps notes and their history, `tools.py` is
what the chat model calls, `kit/forget/notes.py` what `kit forget` takes.
"""
