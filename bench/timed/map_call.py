"""What one call of a `Dataset.map` function costs tf.data beyond its ops' work (work_energy.MAP_CALL_S):
CPU seconds per element of a pass over 20,000 elements of 16 floats, with no map, an identity map,
maps of 1, 2, 9 and 17 elementwise ops, and one op mapped after `batch(64)`.

    python -m bench.timed.map_call
"""

from __future__ import annotations

import time


def per_element(dataset, elements: int, passes: int = 3) -> float:
    """CPU seconds per element of a pass over *dataset* (after one warm-up pass)."""
    for _ in dataset:
        pass
    start = time.process_time()
    for _ in range(passes):
        for _ in dataset:
            pass
    return (time.process_time() - start) / (passes * elements)


def main() -> None:
    import numpy as np
    import tensorflow as tf

    x = np.random.rand(20000, 16).astype("float32")
    base = tf.data.Dataset.from_tensor_slices(x)

    def ops(k):
        def f(v):
            for _ in range(k):
                v = tf.math.sin(v)
            return v
        return f

    rows = {"no map": base.batch(64), "identity map": base.map(lambda v: v).batch(64)}
    rows.update({f"map of {k} op{'s' if k > 1 else ''}": base.map(ops(k)).batch(64) for k in (1, 2, 9, 17)})
    rows["1 op mapped after batch(64)"] = base.batch(64).map(ops(1))
    for name, dataset in rows.items():
        print(f"{name}: {per_element(dataset, len(x)) * 1e6:.3g} us per element")


if __name__ == "__main__":
    main()
