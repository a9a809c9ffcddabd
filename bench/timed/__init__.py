"""The CPU-timed suite: small TF/Keras scripts timed on this machine and compared with greenlint's figures."""
