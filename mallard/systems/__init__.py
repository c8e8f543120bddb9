"""Mirror of pydrake.systems."""
