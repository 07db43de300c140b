"""Retrieval: finding what memory holds for a question (lexical, vectors, fusion, the signals a
query carries)."""
