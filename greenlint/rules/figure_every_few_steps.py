"""GL321 figure-every-few-steps: a matplotlib figure drawn and saved every few training steps."""

from __future__ import annotations

import ast
import operator
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument
from greenlint.rules.batch_price import device
from greenlint.rules.defaults import bound_literal, known_value
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.material import MIN_SHARE
from greenlint.rules.periodic import call_points, loop_period, pass_steps
from greenlint.rules.save_price import steps_seconds
from greenlint.rules.syntax import LOOPS, SCOPES, cell_units, every_pass, last_name, own_loops
from greenlint.units import fmt_s

#: The least seconds matplotlib takes to make a figure and save it as a PNG file, and to draw each
#: axes of it (an image, its axis turned off). Measured (Agg backend, matplotlib 3.11, 28x28
#: images, best of five) on two cores shared at a load of about 10: 0.17 s for a figure of one
#: axes, about 40 ms more per further axes (1.17 s for a 5x5 grid); a tenth of each is taken, for
#: a fast, idle host.
FIGURE_S = 0.017
AXES_S = 0.004
#: A loop known to draw fewer figures than this is not reported.
FEW_FIGURES = 10
#: The integer arithmetic a drawing's counts are read through (`range(r * c)`).
_ARITHMETIC = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}

#: The model of the cases: dense layers on MNIST-sized images, trained on batches of 32, whose
#: generator is sampled into a 5x5 grid of images (`{every}`: the test of the `if` around the call).
GRID = (
    "import numpy as np\nimport matplotlib.pyplot as plt\nimport tensorflow as tf\n"
    "m = tf.keras.Sequential([tf.keras.Input((100,)), tf.keras.layers.Dense(256), tf.keras.layers.Dense(784)])\n"
    "m.compile(optimizer='adam', loss='mse')\nx, y = np.zeros((32, 100)), np.zeros((32, 784))\n\n\n"
    "def sample(step):\n    r, c = 5, 5\n    images = m.predict(np.zeros((r * c, 100)))\n"
    "    fig, axs = plt.subplots(r, c)\n    for i in range(r):\n        for j in range(c):\n"
    "            axs[i, j].imshow(images[i * c + j].reshape(28, 28))\n"
    "    fig.savefig('%d.png' % step)\n    plt.close()\n\n\n"
    "for step in range(4000):\n    m.train_on_batch(x, y)\n    if {every}:\n        sample(step)\n"
)


class FigureEveryFewSteps(Rule):
    """
    ## What it does
    Flags a training loop that draws and saves a matplotlib figure every few steps: a
    `savefig` under an `if` of the loop that takes a remainder (`if step % 50 == 0:`, or after
    `if step % 50 != 0: continue`, the
    divisor known with the program's defaults: a literal, a module constant, a parameter's
    default or what every call passes it, an argparse or absl flag's default), or on every pass,
    made in the loop or in a function of the file that the loop calls there
    (`self.sample_images(epoch)`; the finding is on that call), or in one that such a function
    calls, up to three calls deep (an `if` there hides it, but one on a parameter true with the
    program's defaults). The loop trains when its own
    body runs a training step (`train_on_batch`, `apply_gradients`, `minimize`, a TF1 run that
    fetches the update, a `tf.function` that trains), or calls a function of the file that runs
    one step a call (`train_step(x, y)`, as GL311 reads it).

    It is priced, and reported only where the figures take at least 10 % of the time they and
    the training steps between two of them take: each saved figure costs at least 17 ms and
    each axes drawn in it 4 ms (a tenth of what a loaded host measured: the constants in the
    module), the axes counted from the `subplots(r, c)` grids (or the `subplot(r, c, i)` grid)
    the drawing function makes, `r` and `c` known as literals or names bound once to them
    (`r, c = 5, 5`), or sums, differences and products of those (`r * c`), else one axes per
    figure, and a figure made in a `for ... in range(n)` of the drawing counted on each of its `n` passes (one figure per image saved: a loop of the
    drawing function, which trains nothing, is no training loop); the steps are timed by greenlint's device model
    on the GPU stated with `--device`, else a T4, every constant at its slow end. Where any
    step's FLOPs or batch are not known, nothing is priced and nothing reported; nor is a loop
    known to draw fewer than 10 figures. The rule is opt-in (preview) until the real-world
    benchmark has judged its findings.

    ## Why is this bad?
    Sampling a generator into a grid of images is how a GAN's progress is watched, but
    matplotlib draws on the host, in Python, one axes after the other, and encodes the PNG
    there: a 5x5 grid takes a large fraction of a second, a 10x10 grid seconds. The small
    networks of many GAN examples train a step in a few milliseconds, so a grid every 50 or
    200 steps can take as long as the training between two grids, while the device waits.
    Sample every few thousand steps, or once per epoch, with a smaller grid.

    ## Example
    ```python
    for step in range(4000):
        gan.train_on_batch(noise, valid)
        if step % 50 == 0:
            save_grid(generator.predict(fixed_noise), step)  # a 5x5 plt.subplots grid
    ```

    ## Use instead
    ```python
    for step in range(4000):
        gan.train_on_batch(noise, valid)
        if step % 1000 == 0:
            save_grid(generator.predict(fixed_noise), step)
    ```

    ## Energy evidence
    Not measured as a pair: the saving is the host time of the figures left out, against the
    training steps between two of them; the message states both.

    ## Fix safety
    No automatic fix: how often to look at samples is the user's choice.

    ## Options
    None.
    """

    code = "GL321"
    name = "figure-every-few-steps"
    MENTIONS = ("matplotlib",)
    DEFAULT_ENABLED = False
    MESSAGE = (
        "`{call}()` draws and saves matplotlib figures ({drawn}) {when}{source}: they take at least {each},"
        " at least {share:.0%} of the time they and the training steps since the last ones take (those steps at"
        " most {steps_s} on {where}); draw samples every few thousand steps, or once per epoch"
    )
    FIX_TITLE = "Draw the sample figures every few thousand steps, or once per epoch"
    VALID = (
        Valid(GRID.format(every="step % 1000 == 0")),  # every 1000 steps: a few % of the training
        Valid(  # a loop of 200 steps drawing every 50: four figures
            GRID.format(every="step % 50 == 0").replace("range(4000)", "range(200)")
        ),
        Valid(  # the period comes from the command line with no default: not known
            GRID.format(every="step % args.sample_every == 0")
        ),
        Valid(  # a batch the code does not size: the steps between two figures are not priced
            GRID.format(every="step % 50 == 0").replace(
                "for step in range(4000):\n    m.train_on_batch(x, y)\n",
                "for step, (x, y) in enumerate(batches):\n    m.train_on_batch(x, y)\n",
            )
        ),
        Valid(  # a loop that trains nothing: plotting a data set's images
            GRID.format(every="step % 50 == 0").replace("    m.train_on_batch(x, y)\n", "")
        ),
        Valid(  # the function saves the figure only on some calls (an `if` of its own): its callers decide
            GRID.format(every="step % 50 == 0").replace(
                "    fig.savefig('%d.png' % step)\n", "    if step in keep:\n        fig.savefig('%d.png' % step)\n"
            )
        ),
        Valid(  # once per epoch, after the epoch's steps: the loop around the call runs no step itself
            GRID.format(every="step % 5 == 0").replace(
                "for step in range(4000):\n    m.train_on_batch(x, y)\n",
                "for step in range(100):\n    for _ in range(1000):\n        m.train_on_batch(x, y)\n",
            )
        ),
    )
    INVALID = (
        Invalid(  # each of 25 images saved as a figure of its own, in a loop of the drawing function
            GRID.format(every="step % 50 == 0").replace(
                "    fig, axs = plt.subplots(r, c)\n    for i in range(r):\n        for j in range(c):\n"
                "            axs[i, j].imshow(images[i * c + j].reshape(28, 28))\n"
                "    fig.savefig('%d.png' % step)\n    plt.close()\n",
                "    for i in range(25):\n        fig = plt.figure()\n        plt.imshow(images[i].reshape(28, 28))\n"
                "        fig.savefig('%d_%d.png' % (step, i))\n        plt.close()\n",
            ),
            line=22,
            message_contains="`sample()` draws and saves matplotlib figures (25 figures, 25 axes) every 50 training steps",
        ),
        Invalid(  # the loop's count a product of the grid's sides, each image a figure of its own
            GRID.format(every="step % 50 == 0").replace(
                "    fig, axs = plt.subplots(r, c)\n    for i in range(r):\n        for j in range(c):\n"
                "            axs[i, j].imshow(images[i * c + j].reshape(28, 28))\n"
                "    fig.savefig('%d.png' % step)\n    plt.close()\n",
                "    for i in range(r * c):\n        fig = plt.figure()\n        plt.imshow(images[i].reshape(28, 28))\n"
                "        fig.savefig('%d_%d.png' % (step, i))\n        plt.close()\n",
            ),
            line=22,
            message_contains="(25 figures, 25 axes) every 50 training steps",
        ),
        Invalid(  # a 5x5 grid every 50 steps of a small dense network
            GRID.format(every="step % 50 == 0"),
            line=23,
            message_contains="`sample()` draws and saves matplotlib figures (1 figure, 25 axes) every 50 training"
            " steps: they take at least 117 ms",
        ),
        Invalid(  # the training step in a function of the file the loop calls, one step a call
            GRID.format(every="step % 50 == 0")
            .replace("    m.train_on_batch(x, y)\n    if", "    train_step()\n    if")
            .replace("for step in", "def train_step():\n    return m.train_on_batch(x, y)\n\n\nfor step in"),
            line=27,
            message_contains="(1 figure, 25 axes) every 50 training steps: they take at least 117 ms",
        ),
        Invalid(  # a figure drawn on every training step
            GRID.format(every="True").replace("    if True:\n        sample(step)\n", "    sample(step)\n"),
            line=22,
            message_contains="(1 figure, 25 axes) on every training step: they take at least 117 ms",
        ),
        Invalid(  # the period a parameter's default, the grid drawn in the loop itself with `subplot`
            "import numpy as np\nimport matplotlib.pyplot as plt\nimport tensorflow as tf\n"
            "m = tf.keras.Sequential([tf.keras.Input((100,)), tf.keras.layers.Dense(256), tf.keras.layers.Dense(784)])\n"
            "m.compile(optimizer='adam', loss='mse')\nx, y = np.zeros((32, 100)), np.zeros((32, 784))\n\n\n"
            "def train(steps=4000, every=20):\n    for step in range(steps):\n        m.train_on_batch(x, y)\n"
            "        if step % every == 0:\n            plt.figure()\n            for i in range(16):\n"
            "                plt.subplot(4, 4, i + 1)\n                plt.imshow(x[i].reshape(10, 10))\n"
            "            plt.savefig('%d.png' % step)\n            plt.close()\n",
            line=17,
            message_contains="every 20 training steps (`every`: the default of parameter `every`)",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        seen: set[int] = set()
        for cell, _ in cell_units(facts):
            for save in facts.calls_named(cell, "savefig"):
                for unit_cell, point in call_points(facts, save, cell):
                    if id(point) in seen:
                        continue
                    seen.add(id(point))
                    found = self._finding(facts, save, cell, point, unit_cell)
                    if found is not None:
                        yield found

    def _finding(
        self, facts: FileFacts, save: ast.Call, cell: int | None, point: ast.Call, unit_cell: int | None
    ) -> Diagnostic | None:
        """The finding on *point*, the call a training loop runs that saves the figure *save*."""
        found = loop_period(facts, point, unit_cell)
        loops = own_loops(facts, point, unit_cell)
        if found is None and loops and every_pass(facts, point, unit_cell):
            found = 1, "", loops[0]
        if found is None or found[0] < 1:
            return None
        period, source, loop = found
        steps = pass_steps(facts, loop, unit_cell)
        runs = next((s.loop_runs for s in steps if s.loop_runs is not None), None)
        one = steps_seconds(steps, facts.device)
        gpu = device(facts.device)
        if one is None or gpu is None or runs is not None and runs // period < FEW_FIGURES:
            return None
        figures, axes = _drawn(facts, save, cell, point)
        each = figures * FIGURE_S + axes * AXES_S
        steps_s = period * one
        share = each / (each + steps_s)
        if share < MIN_SHARE:
            return None
        where = f"the stated {gpu.name}" if facts.device else f"an {gpu.name}, the reference GPU: no --device stated"
        when = "on every training step" if period == 1 else f"every {period} training steps"
        drawn = f"{figures} figure{'s' if figures > 1 else ''}, {axes} axes"
        name = last_name(point.func)
        message = self.MESSAGE.format(
            call=name,
            drawn=drawn,
            when=when,
            source=source,
            each=fmt_s(each),
            share=share,
            steps_s=fmt_s(steps_s),
            where=where,
        )
        return self.diagnostic(facts.span(point, unit_cell), facts.path, message)


def _drawn(facts: FileFacts, save: ast.Call, cell: int | None, point: ast.Call) -> tuple[int, int]:
    """(figures, axes) the drawing that *save* saves makes, at the least: in the function that
    saves (where the loop calls it), else in the statement of the loop's body that holds the save."""
    scope = next((p for p in facts.ancestors(save, cell) if isinstance(p, SCOPES)), None)
    region: ast.AST = save
    for parent in facts.ancestors(save, cell):
        if isinstance(parent, (*SCOPES, *LOOPS)):
            break
        region = parent
    if point is not save and scope is not None:
        region = scope
    figures, axes, grid = 0, 0, 0
    todo: list[tuple[ast.AST, int]] = [(region, 1)]
    while todo:
        node, times = todo.pop()
        if isinstance(node, ast.Call):
            called = last_name(node.func)
            if called == "subplots":
                figures += times
                axes += (
                    times * _size(facts, node, scope, cell, "nrows", 0) * _size(facts, node, scope, cell, "ncols", 1)
                )
            elif called == "figure":
                figures += times
            elif called in ("subplot", "add_subplot"):
                grid = max(
                    grid, _size(facts, node, scope, cell, "nrows", 0) * _size(facts, node, scope, cell, "ncols", 1)
                )
        if node is region or not isinstance(node, SCOPES):
            inner = times * _trips(facts, node, scope, cell) if node is not region else times
            todo.extend((child, inner) for child in ast.iter_child_nodes(node))
    figures = max(figures, 1)
    return figures, max(axes + grid, figures)


def _trips(facts: FileFacts, node: ast.AST, scope: ast.AST | None, cell: int | None) -> int:
    """How many times a drawing loop runs its body, at the least: `for i in range(n)` with `n`
    known (1 for any other node or loop: each drawing in it counted once)."""
    if not isinstance(node, ast.For) or not isinstance(node.iter, ast.Call) or last_name(node.iter.func) != "range":
        return 1
    bounds = [_known(facts, a, scope, cell) for a in node.iter.args]
    known = [b for b in bounds if b is not None]
    if len(known) != len(bounds) or len(known) not in (1, 2):
        return 1
    return max(known[-1] - (known[0] if len(known) == 2 else 0), 0)


def _size(facts: FileFacts, call: ast.Call, scope: ast.AST | None, cell: int | None, keyword: str, at: int) -> int:
    """A grid's rows or columns given to *call* (1 when not given or not known)."""
    given = argument(call, keyword, at)
    value = _known(facts, given, scope, cell) if given is not None else None
    return value if value is not None and value > 0 else 1


def _known(facts: FileFacts, given: ast.expr, scope: ast.AST | None, cell: int | None) -> int | None:
    """An integer the program's defaults give *given*, or a name its drawing function binds once
    to a literal (`r, c = 5, 5`), or a sum, difference or product of those (`range(r * c)`); None
    when not known."""
    if isinstance(given, ast.BinOp) and type(given.op) in _ARITHMETIC:
        left, right = _known(facts, given.left, scope, cell), _known(facts, given.right, scope, cell)
        return None if left is None or right is None else _ARITHMETIC[type(given.op)](left, right)
    value = known_value(facts, given, cell)[0]
    if value is None and isinstance(given, ast.Name) and scope is not None:
        value = bound_literal(scope, given.id)
    return value if isinstance(value, int) and not isinstance(value, bool) else None
