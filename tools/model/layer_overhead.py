"""Measures a training step's per-layer overhead on this machine's CPU, per kind of layer (issue 27).

Times `train_on_batch` steps of narrow Dense MLPs (2, 5, 10, 20 layers, width 32: overhead, not
FLOPs, sets their step) and of small CNNs (2, 4, 6, 10 conv layers, channels chosen so each CNN's
step has about the same FLOPs). Each model is warmed up, then the models are timed in interleaved
rounds (the machine is shared), each round a block of steps; a model's step is the median over the
rounds of process CPU time and of wall time per step. The per-layer overhead of a kind is the
least-squares slope of its step time on its layer count. TensorFlow runs with one intra-op and one
inter-op thread so CPU time is not inflated by idle spinning on a loaded machine.

    python -m tools.model.layer_overhead [--rounds 15] [--steps 20] > data/model/layer_overhead.json

Needs TensorFlow (the `meter` extra); it builds its own synthetic models and runs no analysed code.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

BATCH = 32
WIDTH = 32
MLP_DEPTHS = (2, 5, 10, 20)
CNN_DEPTHS = (2, 4, 6, 10)
SIDE, CNN_FLOPS = 16, 2 * 2 * 16 * 16 * 9 * 16 * 16  # forward FLOPs per sample of two 16-channel 3x3 convs


def _mlp(tf, depth: int):
    layers = [tf.keras.layers.Dense(WIDTH, activation="relu") for _ in range(depth - 1)]
    model = tf.keras.Sequential([tf.keras.Input((WIDTH,)), *layers, tf.keras.layers.Dense(1)])
    x, y = tf.random.normal((BATCH, WIDTH)), tf.random.normal((BATCH, 1))
    return model, x, y, depth, 2 * WIDTH * WIDTH * depth


def _cnn(tf, depth: int):
    channels = max(1, round((CNN_FLOPS / (2 * SIDE * SIDE * 9 * depth)) ** 0.5))
    convs = [tf.keras.layers.Conv2D(channels, 3, padding="same", activation="relu") for _ in range(depth)]
    model = tf.keras.Sequential([tf.keras.Input((SIDE, SIDE, channels)), *convs,
                                 tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(1)])
    x, y = tf.random.normal((BATCH, SIDE, SIDE, channels)), tf.random.normal((BATCH, 1))
    return model, x, y, depth + 2, 2 * SIDE * SIDE * 9 * channels * channels * depth


def _slope(points: list[tuple[int, float]]) -> float:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def measure(rounds: int, steps: int, warmup: int = 30) -> dict:
    import tensorflow as tf

    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.random.set_seed(0)
    models: dict[tuple[str, int], tuple] = {}
    for kind, build, depths in (("dense", _mlp, MLP_DEPTHS), ("conv", _cnn, CNN_DEPTHS)):
        for depth in depths:
            model, x, y, layers, flops = build(tf, depth)
            model.compile(optimizer="adam", loss="mse")
            for _ in range(warmup):
                model.train_on_batch(x, y)
            models[(kind, depth)] = (model, x, y, layers, flops, [], [])
    for _ in range(rounds):
        for model, x, y, _, _, cpu, wall in models.values():
            c0, w0 = time.process_time(), time.perf_counter()
            for _ in range(steps):
                model.train_on_batch(x, y)
            cpu.append((time.process_time() - c0) / steps)
            wall.append((time.perf_counter() - w0) / steps)
    out: dict = {"batch": BATCH, "rounds": rounds, "steps_per_round": steps, "tensorflow": tf.__version__, "kinds": {}}
    for kind in ("dense", "conv"):
        rows = [{"depth": d, "layers": layers, "forward_flops_per_sample": flops,
                 "cpu_ms": round(1e3 * statistics.median(cpu), 3), "wall_ms": round(1e3 * statistics.median(wall), 3)}
                for (k, d), (_, _, _, layers, flops, cpu, wall) in models.items() if k == kind]
        out["kinds"][kind] = {
            "models": rows,
            "per_layer_cpu_ms": round(_slope([(r["layers"], r["cpu_ms"]) for r in rows]), 4),
            "per_layer_wall_ms": round(_slope([(r["layers"], r["wall_ms"]) for r in rows]), 4)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    print(json.dumps(measure(args.rounds, args.steps), indent=1))


if __name__ == "__main__":
    main()
