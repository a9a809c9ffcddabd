"""An array the program writes to a file and reads back has the size it was written with
(greenlint/analysis/files.py): `np.save`/`np.load` and `np.savetxt`/`np.loadtxt` on one literal
name; a read that selects part of the file, a computed name or a file the code never wrote stays
unknown."""

from __future__ import annotations

import pytest

from tests.analysis.test_data_sizes import MODEL, fit_work, samples


def _fit(code: str) -> dict:
    return fit_work(code + MODEL + "model.fit(x, y, epochs=3, batch_size=32)\n")


@pytest.mark.parametrize(
    "write, read, rows",
    [
        ('np.save("cache/x.npy", np.random.rand(5000, 2))', 'x = np.load("cache/x.npy")', 5000),
        ('np.save("x", np.zeros((700, 2)))', 'x = np.load("x.npy")', 700),  # np.save adds .npy
        ('np.savetxt("t.csv", np.random.rand(900, 2), delimiter=",")', 'x = np.loadtxt("t.csv", delimiter=",")', 900),
        ('np.savetxt("t.csv", np.random.rand(900, 3))', 'x = np.loadtxt("t.csv")[:, :2]', 900),
        ('np.savetxt(fname="t.txt", X=np.random.rand(40, 2))', 'x = np.loadtxt(fname="t.txt")', 40),
    ],
)
def test_an_array_read_back_from_a_file_the_program_wrote_has_the_size_written(write, read, rows):
    work = _fit(f"{write}\n{read}\ny = x[:, 0]\n")
    assert samples(work) == rows and work["samples"]["provenance"] == "inferred"
    assert "written by np.save" in work["samples"]["note"] and f"{rows:,}" in work["samples"]["note"]
    assert work["steps"]["value"] == 3 * -(-rows // 32)


@pytest.mark.parametrize(
    "code",
    [
        'x = np.load("never_written.npy")',  # a file in the workspace or elsewhere: not written here
        "np.save(name, np.zeros((500, 2)))\nx = np.load(name)",  # a computed name
        'np.savetxt("t.csv", np.zeros((500, 2)))\nx = np.loadtxt("t.csv", skiprows=100)',  # part of the file
        'np.savetxt("t.csv", np.zeros((500, 2)))\nx = np.loadtxt("t.csv", max_rows=10)',
        'np.save("x.npy", np.zeros((500, 2)))\nnp.save("x.npy", data)\nx = np.load("x.npy")',  # overwritten: unknown
        'np.save("a.npy", np.zeros((500, 2)))\nx = np.load("b.npy")',  # another file
    ],
)
def test_a_read_the_code_does_not_size_stays_unknown(code):
    work = _fit(f"name = input()\ndata = get()\n{code}\ny = x[:, 0]\n")
    assert samples(work) is None and work["samples"]["provenance"] == "unknown"


def test_a_dataset_from_arrays_read_back_has_their_samples():
    work = fit_work(
        'np.save("x.npy", np.random.rand(4096, 2))\nnp.save("y.npy", np.random.randint(0, 2, size=(4096,)))\n'
        'ds = tf.data.Dataset.from_tensor_slices((np.load("x.npy"), np.load("y.npy"))).shuffle(256).batch(64)\n'
        + MODEL
        + "model.fit(ds, epochs=2)\n"
    )
    assert samples(work) == 4096 and work["steps"]["value"] == 2 * 64
