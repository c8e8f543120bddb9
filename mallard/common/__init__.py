"""Mirror of pydrake.common."""
