"""`greenlint kb predict API [--kw name=value,...] [--work name=value,...]`: one described call site."""

from __future__ import annotations

import ast
import json
import math
import re
import sys

HELP = "predict the energy of one call: greenlint kb predict tf.keras.Sequential.fit --kw epochs=20"
#: Quantities that count something: a positive number (integers where they count whole things).
_COUNTS = frozenset({"epochs", "steps_per_epoch", "batch_size", "samples", "validation_samples", "steps",
                     "elements", "n_layers", "units", "filters"})
_AMOUNTS = frozenset({"params", "flops_per_sample", "flops", "tensor_bytes", "tensor_elements"})
#: A comma starts the next pair only where a name and `=` follow (commas inside tuples stay).
_NEXT_PAIR = re.compile(r",\s*(?=[A-Za-z_]\w*\s*=)")


def register(parser) -> None:
    parser.add_argument("api", help="API name, canonical or as written (tf.keras.Model.fit, keras.layers.Dense, ...)")
    parser.add_argument(
        "--kw", action="append", default=[], metavar="NAME=VALUE[,...]",
        help="literal arguments of the call (epochs=5,batch_size=64); repeatable; values are Python literals",
    )
    parser.add_argument(
        "--work", action="append", default=[], metavar="NAME=VALUE[,...]",
        help="the call's work (samples=60000,flops_per_sample=2.4e7,model=MobileNetV2, samples=unknown; "
             "see docs/calls-json.md)",
    )  # fmt: skip
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--model", default=None, help="model file (default: data/model/predictor.json)")
    parser.add_argument("--no-overlay", action="store_true", help="ignore this machine's calibration")


def parse_features(args: list[str], option: str = "--kw") -> dict:
    """`name=value[,name=value...]` arguments; values are Python literals where they parse, else
    strings. Counts (epochs, batch_size, samples, ...) must be positive numbers: ValueError otherwise;
    `samples=unknown` (any count or amount) says the code does not state it, as `greenlint calls` does."""
    out = {}
    for arg in args:
        for pair in _NEXT_PAIR.split(arg):
            name, sep, value = pair.partition("=")
            name = name.strip()
            if not sep or not name.isidentifier() or not value.strip():
                raise ValueError(f"{option} {pair!r}: expected NAME=VALUE")
            if value.strip() == "unknown" and name in _COUNTS | _AMOUNTS:
                out[f"{name}_unknown"] = True
                continue
            try:
                out[name] = ast.literal_eval(value.strip())
            except (ValueError, SyntaxError):
                out[name] = value.strip()
            except (MemoryError, RecursionError):  # `----...1`: too deeply nested for the parser
                raise ValueError(f"{option} {name}=...: the value is too deeply nested") from None
            if not _finite(out[name]):
                raise ValueError(f"{option} {name}={value.strip()[:40]}: expected finite numbers")
            _check(option, name, out[name])
    return out


def _finite(value) -> bool:
    """No infinity or NaN anywhere in *value* (JSON cannot hold them)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, complex):
        return math.isfinite(value.real) and math.isfinite(value.imag)
    if isinstance(value, (tuple, list, set, frozenset)):
        return all(_finite(v) for v in value)
    if isinstance(value, dict):
        return all(_finite(k) and _finite(v) for k, v in value.items())
    return True


def _check(option: str, name: str, value) -> None:
    if name not in _COUNTS | _AMOUNTS and name != "validation_split":
        return
    number = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if name == "validation_split":
        if not number or not 0 <= value < 1:
            raise ValueError(f"{option} validation_split={value!r}: expected a fraction in [0, 1)")
    elif not number or value <= 0:
        raise ValueError(f"{option} {name}={value!r}: expected a positive number")
    elif name in _COUNTS and value != int(value):
        raise ValueError(f"{option} {name}={value!r}: expected a whole number")


def canonical_api(name: str) -> str:
    from greenlint.catalog.catalog import load_catalog
    from greenlint.catalog.names import normalise_name, strip_call_parens

    name = strip_call_parens(name.strip())
    try:
        found = load_catalog().canonical(name)
    except Exception:  # no catalog: rule-based alias collapsing still applies
        found = None
    return found or normalise_name(name)


def run(args) -> int:
    from greenlint.predict import load_predictor

    try:
        features = {**parse_features(args.kw), **parse_features(args.work, "--work")}
    except ValueError as exc:
        print(f"greenlint kb predict: {exc}", file=sys.stderr)
        return 2
    try:
        api = canonical_api(args.api)
    except ValueError as exc:
        print(f"greenlint kb predict: {args.api!r} is not an API name ({exc})", file=sys.stderr)
        return 2
    try:
        predictor = load_predictor(args.model, overlay=not args.no_overlay)
    except (OSError, ValueError) as exc:
        print(f"greenlint kb predict: {exc}", file=sys.stderr)
        return 2
    from greenlint.predict.site_predictions import finite_or_unknown

    pred = finite_or_unknown(predictor.predict(api, features))
    if args.format == "json":
        from greenlint.report.calls import CALLS_SCHEMA_VERSION

        doc = {"schema_version": CALLS_SCHEMA_VERSION, "api": api, "features": features, **pred.to_json()}
        print(json.dumps(doc, indent=2))
        return 0
    print(render_text(api, pred))
    return 0


def render_text(api: str, pred) -> str:
    from greenlint.units import TIMES, fmt_energy, fmt_j

    if pred.energy_j is None:
        return f"{api}: unknown ({pred.evidence.note or 'no data'})"
    lo, hi = pred.interval_j
    ev = pred.evidence
    width = f"{pred.interval_ratio:.3g}{TIMES} wide" if pred.interval_ratio is not None else "an upper bound"
    parts = [
        f"{api}: {fmt_energy(pred.energy_j, pred.interval_j)} per call (80% interval {fmt_j(lo)} – {fmt_j(hi)}, {width})",
        "  split: " + ", ".join(
            f"{c} {fmt_j(v)}" for c, v in (("CPU", pred.cpu_j), ("GPU", pred.gpu_j), ("DRAM", pred.ram_j)) if v is not None
        ) if any(v is not None for v in (pred.cpu_j, pred.gpu_j, pred.ram_j)) else "  split: unknown",
        f"  basis: {pred.basis.value} ({pred.basis.label}); evidence: {ev.records} records at level {ev.level} ({ev.api})"
        + (f" from {', '.join(ev.sources)}" if ev.sources else ""),
    ]
    if pred.multiplier != 1.0:
        parts.append(f"  features folded in: x{pred.multiplier:.3g}")
    if ev.note:
        parts.append(f"  note: {ev.note}")
    return "\n".join(parts)
