"""Kit's memory: storage, the three layers, retrieval and the context sandwich."""
