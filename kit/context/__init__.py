"""The model's context for one turn: the sandwich, its plan, the memory index and the working-memory
window."""
