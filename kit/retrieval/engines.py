"""The halves of retrieval that differ per engine, picked once (kit/store/engines.py opens the
engine): full-text search and the vector store."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kit.store.db import Database

if TYPE_CHECKING:
    from kit.embed.base import Embedder
    from kit.retrieval.lexical import LexicalSearch
    from kit.retrieval.vectors import VectorStore


def lexical_search(db: Database) -> LexicalSearch:
    """Full-text search in the engine's own words: FTS5's BM25 (from an index kept in memory
    once loaded, kit/retrieval/kept_words.py), or tsvector with GIN."""
    if db.engine == "postgres":
        from kit.retrieval.pg_lexical import TsvectorSearch

        return TsvectorSearch(db)
    from kit.retrieval.kept_words import KeptWords

    return KeptWords(db)


def vector_store(
    db: Database, embedder: Embedder | None, graphs: Path | None = None
) -> VectorStore:
    """Where vectors live and are searched: per-process matrices over SQLite BLOBs (big ones
    through HNSW graphs, saved in `graphs`), or pgvector columns searched by the server."""
    if db.engine == "postgres":
        from kit.retrieval.pg_vectors import PgVectors
        from kit.store.postgres.database import PostgresDatabase

        assert isinstance(db, PostgresDatabase)
        return PgVectors(db, embedder)
    from kit.retrieval.matrices import MatrixVectors

    return MatrixVectors(db, embedder, graphs)
