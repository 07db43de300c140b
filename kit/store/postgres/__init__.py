"""PostgreSQL with pgvector as Kit's store (`storage.url = "postgresql://..."`).

database.py is the only module importing asyncpg; the rest is SQL: the schema (migrations.py),
full-text search with tsvector (kit/retrieval/pg_lexical.py) and vector search with pgvector
(kit/retrieval/pg_vectors.py).
"""
