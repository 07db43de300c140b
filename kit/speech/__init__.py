"""Voice messages: an owner's spoken message, transcribed and handled as their text."""
