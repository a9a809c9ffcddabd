"""Target of bench_meter_overhead.py: long calls (fit > 1 s) and a loop of short calls.

Prints the wall time and the process CPU time of each part, measured from inside, so TF's import
and the meter's stable-state wait (fixed costs, reported apart) are not counted. CPU time includes
the meter's sampler thread; unlike wall time it does not count waiting for other jobs' CPU.
"""

import sys
import time

import numpy as np
import tensorflow as tf

EPOCHS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
rng = np.random.default_rng(0)
x = rng.random((20000, 64), dtype="float32")
y = rng.random((20000, 1), dtype="float32")
model = tf.keras.Sequential([tf.keras.layers.Input((64,)), tf.keras.layers.Dense(256, activation="relu"),
                             tf.keras.layers.Dense(256, activation="relu"), tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit(x[:256], y[:256], epochs=1, verbose=0)  # trace outside the timed part

t0, c0 = time.perf_counter(), time.process_time()
for _ in range(3):
    model.fit(x, y, epochs=EPOCHS, batch_size=64, verbose=0)
print(f"LONG_S {time.perf_counter() - t0:.4f}\nLONG_CPU {time.process_time() - c0:.4f}", flush=True)

a = tf.constant(rng.random((64, 64), dtype="float32"))
t0, c0 = time.perf_counter(), time.process_time()
for _ in range(200):
    a = tf.math.l2_normalize(tf.matmul(a, a))
print(f"SHORT_S {time.perf_counter() - t0:.4f}\nSHORT_CPU {time.process_time() - c0:.4f}", flush=True)
