"""Static analysis: find and name TF/Keras call sites without running user code."""
