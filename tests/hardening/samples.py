"""A program the bad-input tests put beside the bad file, to see that the run goes on."""

#: A finding at 3:5 whatever the figures (GL301: a batch of 2), in a loop.
TRAIN = "import tensorflow as tf\nfor i in range(9):\n    tf.keras.Sequential().fit(x, y, epochs=100, batch_size=2)\n"
