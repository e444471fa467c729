// The floor of the cold-import comparison: a Node process that imports nothing.
