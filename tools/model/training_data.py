"""The GAISSA seaa2023 training runs: parse the raw nvidia-smi/psutil files, summarise each run.

Source: del Rey, Martínez-Fernández, Cruz, Franch, GAISSA-UPC/seaa2023_ect (data CC BY 4.0,
Zenodo 10.5281/zenodo.7828518), as laid out in ``../shared/gaissa-seaa2023/README.md``.
Energy follows the repository's ``preprocessing.py``: drop 3 GPU samples at each end, trapezoid of
power.draw over the real timestamps (decimals kept); RAM power is RSS (MB) x 3.75e-4 W/MB.
The data has no epoch timestamps, so stand-in epochs are cut from each trace: equal slices, or two
phases split where utilisation shifts level (the unfreezing after the 10 frozen epochs).

``python -m tools.model.training_data --out data/training/runs.csv`` writes the per-run table.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import lzma
import re
import sys
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from pathlib import Path

import numpy as np

#: The repository's RAM power model (W per MB of RSS).
RAM_W_PER_MB = 3.75e-4
#: GPU samples dropped at each end (the profiler's lead-in and lead-out).
TRIM_SAMPLES = 3
#: Raw environment folder -> (processed `training environment` value, GPU name, allocated RAM GB).
ENVIRONMENTS = {
    "cloud": ("Cloud", "NVIDIA GeForce RTX 3090", 16.0),
    "local-v2": ("Local ML Engineer/Gamer", "NVIDIA GeForce RTX 3070", 32.0),
}
#: Epochs trained with the base frozen before fine-tuning (README, "Experiment set-up").
FROZEN_EPOCHS = 10
#: Input images are resized to 128x128 (README, "Experiment set-up").
INPUT_HW = (128, 128)
PROCESSED = "raw/processed/dl-training-energy-consumption-dataset.gzip.xz"
ATTRIBUTION = (
    "Derived from GAISSA-UPC/seaa2023_ect (commit 6fa5af6ffedd988110d02eb6954c0401d0b7a75c; "
    "Zenodo 10.5281/zenodo.7828518) by S. del Rey, S. Martinez-Fernandez, L. Cruz, X. Franch; "
    "data licensed CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/). Changes: per-run "
    "energy recomputed from the raw 1 Hz nvidia-smi and psutil files."
)

_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


class RawFileError(ValueError):
    """A raw measurement file that cannot be parsed; the message names the file and the problem."""


@dataclass(frozen=True)
class GpuTrace:
    """One nvidia-smi log: seconds since the first sample, power (W), utilisation (0..1)."""

    time_s: np.ndarray
    power_w: np.ndarray
    util: np.ndarray
    gpu_name: str
    max_power_w: float


@dataclass(frozen=True)
class RunSummary:
    """One recorded training run, with what the offline estimator may know beforehand."""

    env: str
    architecture: str
    run: int
    start: str
    gpu_name: str
    ram_gb: float
    duration_s: float
    energy_gpu_j: float
    energy_ram_j: float
    mean_util: float
    max_power_limit_w: float
    trained_epochs: int
    gflops: float
    batch_size: int
    training_size: int
    validation_size: int
    input_h: int
    input_w: int
    unfreeze_s: float  # detected utilisation regime change, taken as the end of the 10 frozen epochs

    @property
    def energy_j(self) -> float:
        """GPU + RAM energy, the journal paper's definition."""
        return self.energy_gpu_j + self.energy_ram_j


def _number(cell: str, source: str, line: int) -> float:
    match = _NUMBER.search(cell)
    if match is None:
        raise RawFileError(f"{source}:{line}: expected a number, got {cell.strip()!r}")
    return float(match.group())


def _timestamp(cell: str, source: str, line: int) -> float:
    text = cell.strip().replace("/", "-")
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        raise RawFileError(f"{source}:{line}: bad timestamp {cell.strip()!r}") from None


def _drop_cut_last_row(rows: list[list[str]], width: int) -> list[list[str]]:
    """The logger was killed mid-write in 58 cloud files: a short final row is dropped, not an error."""
    while rows and not rows[-1]:
        rows = rows[:-1]
    if rows and len(rows[-1]) < width:
        return rows[:-1]
    return rows


def parse_gpu_csv(text: str, source: str = "<gpu csv>") -> GpuTrace:
    """Parse either header variant of the nvidia-smi log (columns are read by position)."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or len(rows[0]) != 9 or "timestamp" not in rows[0][0]:
        raise RawFileError(f"{source}: not a 9-column nvidia-smi log (header {rows[:1]!r})")
    times, power, util = [], [], []
    name, max_power = "", float("nan")
    body = _drop_cut_last_row(rows[1:], 9)
    for line, row in enumerate(body, start=2):
        if not row:
            continue
        if len(row) != 9:
            raise RawFileError(f"{source}:{line}: expected 9 columns, got {len(row)}")
        times.append(_timestamp(row[0], source, line))
        util.append(_number(row[2], source, line) / 100.0)
        power.append(_number(row[6], source, line))
        name = row[1].strip()
        max_power = _number(row[7], source, line)
    if len(times) < 2:
        raise RawFileError(f"{source}: only {len(times)} samples")
    t = np.asarray(times)
    return GpuTrace(t - t[0], np.asarray(power), np.asarray(util), name, max_power)


def parse_cpu_csv(text: str, source: str = "<cpu csv>") -> tuple[np.ndarray, np.ndarray]:
    """Parse the psutil log: (seconds since the first sample, RSS of the training process in MB)."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or len(rows[0]) < 3 or rows[0][0].strip() != "timestamp":
        raise RawFileError(f"{source}: not a psutil cpu-mem log (header {rows[:1]!r})")
    times, rss = [], []
    for line, row in enumerate(_drop_cut_last_row(rows[1:], len(rows[0])), start=2):
        if not row:
            continue
        if len(row) != len(rows[0]):
            raise RawFileError(f"{source}:{line}: expected {len(rows[0])} columns, got {len(row)}")
        times.append(_timestamp(row[0], source, line))
        rss.append(_number(row[2], source, line))
    if len(times) < 2:
        raise RawFileError(f"{source}: only {len(times)} samples")
    t = np.asarray(times)
    return t - t[0], np.asarray(rss)


def trapezoid(y: np.ndarray, x: np.ndarray) -> float:
    """Trapezoidal integral (numpy renamed trapz, so spell it out)."""
    return float(np.sum((y[1:] + y[:-1]) * np.diff(x)) / 2.0)


def trimmed(trace: GpuTrace, source: str = "<gpu csv>") -> GpuTrace:
    """Drop the profiler's lead-in and lead-out samples; time restarts at 0."""
    if len(trace.time_s) < 2 * TRIM_SAMPLES + 2:
        n = len(trace.time_s)
        raise RawFileError(f"{source}: only {n} GPU samples: too short to trim {TRIM_SAMPLES} at each end")
    s = slice(TRIM_SAMPLES, len(trace.time_s) - TRIM_SAMPLES)
    t = trace.time_s[s]
    return GpuTrace(t - t[0], trace.power_w[s], trace.util[s], trace.gpu_name, trace.max_power_w)


def ram_energy_j(time_s: np.ndarray, rss_mb: np.ndarray) -> float:
    return trapezoid(rss_mb * RAM_W_PER_MB, time_s)


def slice_energies(trace: GpuTrace, edges: np.ndarray, ram_power_w: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Energy (J, GPU trapezoid + constant RAM power) and duration (s) between consecutive time edges."""
    t, p = trace.time_s, trace.power_w
    fine = np.union1d(t, edges)
    pf = np.interp(fine, t, p)
    cum = np.concatenate([[0.0], np.cumsum((pf[1:] + pf[:-1]) * np.diff(fine) / 2)])
    times = np.diff(edges)
    return np.diff(np.interp(edges, fine, cum)) + ram_power_w * times, times


def equal_edges(duration_s: float, epochs: int) -> np.ndarray:
    """The README's approximation: *epochs* slices of equal duration."""
    return np.linspace(0.0, duration_s, epochs + 1)


def two_phase_edges(duration_s: float, epochs: int, change_s: float, first_epochs: int = FROZEN_EPOCHS) -> np.ndarray:
    """*first_epochs* equal slices before the regime change, the remaining epochs equal slices after it."""
    if not 0 < change_s < duration_s or not 0 < first_epochs < epochs:
        raise ValueError(f"no two phases: change at {change_s} s of {duration_s} s, {first_epochs}/{epochs} epochs")
    before = np.linspace(0.0, change_s, first_epochs + 1)
    return np.concatenate([before, np.linspace(change_s, duration_s, epochs - first_epochs + 1)[1:]])


def regime_change_s(trace: GpuTrace, max_s: float, *, skip_s: float = 60.0, bin_s: float = 10.0) -> float:
    """When utilisation shifts level (the base is unfrozen after epoch 10), searched in [skip_s, max_s].

    The best single mean-shift split of 10-s bins of utilisation, after a 5-bin running median (so that
    a short dip is not taken for a regime); the first minute (start-up) is ignored.
    """
    t, u = trace.time_s, trace.util
    idx = (t // bin_s).astype(int)
    bins = np.bincount(idx, weights=u) / np.maximum(np.bincount(idx), 1)
    padded = np.pad(bins, 2, mode="edge")
    smooth = np.median(np.lib.stride_tricks.sliding_window_view(padded, 5), axis=1)
    skip = int(skip_s // bin_s)
    b = smooth[skip:]
    n = len(b)
    k = np.arange(2, min(n - 2, int(max_s // bin_s) - skip) + 1)
    if len(k) == 0:
        raise ValueError(f"run of {t[-1]:.0f} s is too short to find a regime change before {max_s:.0f} s")
    cs, cs2 = np.cumsum(b), np.cumsum(b * b)
    left = cs2[k - 1] - cs[k - 1] ** 2 / k
    right = (cs2[-1] - cs2[k - 1]) - (cs[-1] - cs[k - 1]) ** 2 / (n - k)
    return float((skip + k[np.argmin(left + right)]) * bin_s)


def read_xz_text(path: Path) -> str:
    with lzma.open(path, "rt", encoding="utf-8") as fh:
        return fh.read()


def load_processed(shared_dir: Path):
    """The processed per-run table (a pandas DataFrame); needs pyarrow."""
    import pandas as pd

    path = Path(shared_dir) / "gaissa-seaa2023" / PROCESSED
    with lzma.open(path) as fh:
        return pd.read_parquet(io.BytesIO(fh.read()))


def run_files(shared_dir: Path) -> list[tuple[str, str, int, Path, Path]]:
    """(env, architecture, run index, gpu file, cpu file) for every raw run, in the repo's order."""
    root = Path(shared_dir) / "gaissa-seaa2023" / "raw" / "raw"
    out = []
    for env in ENVIRONMENTS:
        for arch_dir in sorted(p for p in (root / env).iterdir() if p.is_dir()):
            gpus = sorted(arch_dir.glob("gpu-power-*.csv.xz"))
            for i, gpu in enumerate(gpus):
                stamp = gpu.name[len("gpu-power-") : -len(".csv.xz")]
                cpu = arch_dir / f"cpu-mem-usage-{stamp}.csv.xz"
                out.append((env, arch_dir.name, i, gpu, cpu))
    return out


@dataclass(frozen=True)
class EpochSeries:
    """Stand-in epochs of one run (the data has no epoch timestamps): energy (J) and duration (s) each."""

    energy_j: np.ndarray
    time_s: np.ndarray


@dataclass(frozen=True)
class LoadedRun:
    summary: RunSummary
    equal: EpochSeries  # `trained epochs` slices of equal duration
    two_phase: EpochSeries  # 10 equal slices before the detected unfreezing, the rest equal after it


def _load_one(env, arch, run, gpu_path, cpu_path, meta) -> LoadedRun:
    trace = trimmed(parse_gpu_csv(read_xz_text(gpu_path), str(gpu_path)), str(gpu_path))
    cpu_t, rss = parse_cpu_csv(read_xz_text(cpu_path), str(cpu_path))
    e_gpu = trapezoid(trace.power_w, trace.time_s)
    e_ram = ram_energy_j(cpu_t, rss)
    duration = float(trace.time_s[-1])
    _, gpu_name, ram_gb = ENVIRONMENTS[env]
    summary = RunSummary(
        env=env, architecture=arch, run=run, start=gpu_path.name[10:25], gpu_name=trace.gpu_name or gpu_name,
        ram_gb=ram_gb, duration_s=duration, energy_gpu_j=e_gpu, energy_ram_j=e_ram,
        mean_util=float(np.mean(trace.util)), max_power_limit_w=trace.max_power_w,
        trained_epochs=int(meta["trained epochs"]), gflops=float(meta["GFLOPs"]),
        batch_size=int(meta["batch size"]), training_size=int(meta["training size"]),
        validation_size=int(meta["validation size"]), input_h=INPUT_HW[0], input_w=INPUT_HW[1],
        # frozen epochs run no backward pass through the base, so they are no longer than the others
        unfreeze_s=regime_change_s(trace, max_s=1.1 * FROZEN_EPOCHS * duration / int(meta["trained epochs"])),
    )
    ram_w = e_ram / duration
    equal = EpochSeries(*slice_energies(trace, equal_edges(duration, summary.trained_epochs), ram_w))
    edges = two_phase_edges(duration, summary.trained_epochs, summary.unfreeze_s)
    return LoadedRun(summary, equal, EpochSeries(*slice_energies(trace, edges, ram_w)))


def _cache_key(files) -> str:
    h = hashlib.sha256(b"gaissa-v2")
    for *_, gpu, cpu in files:
        for p in (gpu, cpu):
            st = p.stat()
            h.update(f"{p.name}:{st.st_size}:{int(st.st_mtime)}".encode())
    return h.hexdigest()[:16]


def load_runs(shared_dir: Path, *, use_cache: bool = True, errors: list[str] | None = None) -> list[LoadedRun]:
    """Parse all raw runs (a few seconds), cached under the user cache directory.

    A run whose files cannot be read is left out and its error (naming the file) appended to *errors*;
    without an *errors* list the first such error is raised.
    """
    files = run_files(shared_dir)
    cache = None
    if use_cache:
        from greenlint.paths import cache_dir

        cache = cache_dir() / "training" / f"gaissa-{_cache_key(files)}.json.xz"
        if cache.is_file():
            try:
                return _from_json(json.loads(read_xz_text(cache)))
            except (OSError, EOFError, lzma.LZMAError, ValueError, KeyError, TypeError):
                pass  # a damaged cache is rebuilt below
    processed = load_processed(shared_dir)
    meta = {
        (env, arch, int(r["run"])): r
        for env, (label, _, _) in ENVIRONMENTS.items()
        for arch, grp in processed[processed["training environment"] == label].groupby("architecture")
        for _, r in grp.iterrows()
    }
    runs, failed = [], []
    for env, arch, run, gpu, cpu in files:
        try:
            if (env, arch, run) not in meta:
                raise RawFileError(f"{gpu}: no row ({env}, {arch}, run {run}) in the processed table")
            if not cpu.is_file():
                raise RawFileError(f"{gpu}: its cpu-mem-usage file {cpu.name} is missing")
            runs.append(_load_one(env, arch, run, gpu, cpu, meta[(env, arch, run)]))
        except (RawFileError, ValueError) as exc:
            if errors is None:
                raise
            failed.append(str(exc) if str(gpu) in str(exc) or str(cpu) in str(exc) else f"{gpu}: {exc}")
    if errors is not None:
        errors.extend(failed)
    if cache is not None and not failed:
        from greenlint.atomic import atomic_write_bytes

        atomic_write_bytes(cache, lzma.compress(json.dumps(_to_json(runs)).encode()))
    return runs


def _to_json(runs: list[LoadedRun]) -> list[dict]:
    def series(s: EpochSeries) -> dict:
        return {"e": s.energy_j.tolist(), "t": s.time_s.tolist()}

    return [{"summary": asdict(r.summary), "equal": series(r.equal), "two_phase": series(r.two_phase)} for r in runs]


def _from_json(items: list[dict]) -> list[LoadedRun]:
    def series(d: dict) -> EpochSeries:
        return EpochSeries(np.asarray(d["e"]), np.asarray(d["t"]))

    return [LoadedRun(RunSummary(**d["summary"]), series(d["equal"]), series(d["two_phase"])) for d in items]


SUMMARY_COLUMNS = [f.name for f in fields(RunSummary)]


def write_runs_csv(runs: list[LoadedRun], out: Path) -> None:
    """The derived per-run table, with provenance in leading comment lines."""
    from greenlint.atomic import atomic_write_text

    buf = io.StringIO()
    buf.write(f"# {ATTRIBUTION}\n")
    buf.write("# Produced by: python -m tools.model.training_data (from ../shared/gaissa-seaa2023)\n")
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(SUMMARY_COLUMNS)
    for r in runs:
        row = asdict(r.summary)
        writer.writerow([f"{v:.6g}" if isinstance(v, float) else v for v in (row[c] for c in SUMMARY_COLUMNS)])
    atomic_write_text(Path(out), buf.getvalue())


def read_runs_csv(path: Path) -> list[RunSummary]:
    """Read the derived table back (used by the estimator fit and by tests without ../shared)."""
    types = {f.name: f.type for f in fields(RunSummary)}
    out = []
    with open(path, encoding="utf-8") as fh:
        lines = [ln for ln in fh if not ln.startswith("#")]
    for i, row in enumerate(csv.DictReader(lines), start=1):
        try:
            out.append(RunSummary(**{k: (float(v) if types[k] == "float" else int(v) if types[k] == "int" else v)
                                     for k, v in row.items()}))
        except (KeyError, TypeError, ValueError) as exc:
            raise RawFileError(f"{path}: row {i}: {exc}") from None
    return out


def fit_features(r: RunSummary) -> dict:
    """A run as the linter reads a `fit` call of it on the whole network (the resolver's work keys)."""
    return {"architecture": r.architecture, "epochs": r.trained_epochs, "samples": r.training_size,
            "validation_samples": r.validation_size, "batch_size": r.batch_size,
            "input_shape": (r.input_h, r.input_w, 3)}


def fit_phases(r: RunSummary) -> list[dict]:
    """The `fit` calls of run *r* as the linter reads del Rey's code (GAISSA seaa2023's README,
    "Experiment set-up"; the journal paper, section 3.5: "First, we train the models with all the
    layers frozen except for the top. Second, we unfreeze all the layers and fine-tune the whole
    network"): FROZEN_EPOCHS with the base frozen (`base.trainable = False`, compile, fit: no
    backward FLOPs of the base, none of its weights trained), then its other trained epochs after
    `base.trainable = True` and a second compile."""
    whole = fit_features(r)
    frozen = {**whole, "epochs": FROZEN_EPOCHS, "backward_flops_per_sample": 0, "trainable_params": 0}
    return [frozen, {**whole, "epochs": r.trained_epochs - FROZEN_EPOCHS}]



def main(argv: list[str] | None = None) -> int:
    from greenlint.paths import DATA_DIR, shared_dir

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=shared_dir(), help="the ../shared datasets folder")
    ap.add_argument("--out", type=Path, default=DATA_DIR / "training" / "runs.csv")
    ap.add_argument("--model-out", type=Path, default=DATA_DIR / "training" / "offline_model.json",
                    help="where to write the fitted offline estimator")
    args = ap.parse_args(argv)
    if args.shared is None or not (args.shared / "gaissa-seaa2023").is_dir():
        print("greenlint: the shared gaissa-seaa2023 dataset was not found (use --shared DIR)", file=sys.stderr)
        return 2
    runs = load_runs(args.shared)
    write_runs_csv(runs, args.out)
    print(f"wrote {len(runs)} runs to {args.out}")
    from tools.model.offline_runs import fit_offline_runs, save_offline

    model = fit_offline_runs(r.summary for r in runs)
    save_offline(model, args.model_out, f"fitted on {args.out.name}; {ATTRIBUTION}")
    print(f"wrote the offline estimator ({model.runs} runs) to {args.model_out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
