"""Score a folder of images with every saved checkpoint."""

import sys

import numpy as np
import tensorflow as tf

from flowers.data import decode

checkpoints = sys.argv[1:]
images = [decode(p, 0)[0] for p in np.load("paths.npy")[:200]]

for checkpoint in checkpoints:
    model = tf.keras.models.load_model(checkpoint)
    scores = []
    for image in images:
        scores.append(model.predict(image[None, ...], verbose=0))
    print(checkpoint, np.mean(np.argmax(np.concatenate(scores), axis=1)))
