"""GL302 after: the same step compiled with tf.function."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x, y = rng.random((32, 16), dtype=np.float32), rng.random((32, 1), dtype=np.float32)
model = tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(0.01)


@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


def run():
    for _ in range(50):
        step()


if __name__ == "__main__":  # the program the pair stands for: 4,000 runs of its 50 steps (measure.py meters one run)
    for _ in range(4000):
        run()
