"""GL412 before: a replay memory of 1M transitions in a deque, 200 batches sampled at random positions
(32 transitions, 11 lookups each: a window of frames, the action, reward and flags, as a DQN reads them)."""
from collections import deque

import numpy as np
import tensorflow as tf

SIZE = 1_000_000
memory = deque(maxlen=SIZE)
for i in range(SIZE):
    memory.append((i, i % 4, 0.0, False))
INDICES = np.random.default_rng(0).integers(0, SIZE, (200, 32 * 11)).tolist()


def run():
    for batch in INDICES:
        tf.constant([memory[i][0] for i in batch])  # the batch handed to TensorFlow
