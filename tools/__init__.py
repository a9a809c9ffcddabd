"""greenlint's development tools: what builds the shipped data, trains and evaluates the predictor
and writes the generated docs (`make data`). Never installed: the runtime package only reads what
these write (CONTRIBUTING.md, "Runtime and tools")."""
