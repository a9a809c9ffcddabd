"""A small flower classifier, written the way many first TF/Keras projects are (see ../README.md)."""
