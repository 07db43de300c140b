"""The store: the database seam, the SQLite and PostgreSQL engines and their migrations."""
