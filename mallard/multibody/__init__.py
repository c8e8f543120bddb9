"""Mirror of pydrake.multibody."""
