"""A call of the program's own function that does per-item host work (tokenising a text piece by piece,
decoding files in a loop) is a call site of its own, outside the caller's loops (analysis/hostwork.py,
`Resolver.host_site`; docs/calls-json.md "Host work")."""

from greenlint.analysis.analyse import analyse_file

TOKENISER = (
    "import re\n\n"
    "PATTERN = re.compile(r\"\\w+|[^\\w\\s]\")\n\n\n"
    "class Tokenizer:\n"
    "    def __init__(self, vocab):\n        self.vocab = vocab\n\n"
    "    def tokenize(self, text):\n        ids = []\n"
    "        for token in re.findall(PATTERN, text):\n            ids.append(self.vocab.get(token, 0))\n"
    "        return ids\n\n\n"
    "def encode_all(texts, vocab):\n    out = []\n    for text in texts:\n"
    "        out.extend(vocab.get(word, 0) for word in text.split())\n    return out\n\n\n"
    "def count(texts):\n    total = 0\n    for text in texts:\n        total += 1\n    return total\n"
)


def _project(tmp_path, script: str):
    (tmp_path / ".git").mkdir()
    (tmp_path / "tokens.py").write_text(TOKENISER)
    main = tmp_path / "train.py"
    main.write_text(script)
    return analyse_file(main).callsites


def _hosts(sites) -> dict:
    return {(site.api, site.span.line): site for site in sites if site.features.get("receiver") == "host"}


def test_a_helper_modules_tokenising_loop_called_from_a_script_is_a_host_site(tmp_path):
    sites = _project(
        tmp_path,
        "import tensorflow as tf\nfrom tokens import encode_all, count\n\n"
        "texts = open('corpus.txt').read().splitlines()\n"
        "ids = encode_all(texts, {})\n"
        "n = count(texts)\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n",
    )
    hosts = _hosts(sites)
    assert list(hosts) == [("encode_all", 5)]  # `count` loops over the texts but works on none of them
    site = hosts["encode_all", 5]
    assert site.work["host"].value == "text"
    assert "`split` (tokens.py line 20)" in site.work["host"].note
    assert site.work["host_items"].to_json() == {
        "value": None, "provenance": "unknown",
        "note": "the text's size is unknown: how many tokens it holds is not known statically",
    }
    assert site.features["via"] == "`split` (tokens.py line 20)"


def test_a_function_given_a_tokeniser_it_calls_per_example_is_a_host_site(tmp_path):
    """bert's layout: the script's own function loops over the examples and hands each to a function
    calling the tokeniser it is given; the tokeniser's class (another module) loops over a text's matches."""
    sites = _project(
        tmp_path,
        "import tensorflow as tf\nimport tokens\n\n\n"
        "def convert_one(example, tokenizer):\n    return tokenizer.tokenize(example)\n\n\n"
        "def convert_all(examples, tokenizer, path):\n    writer = tf.io.TFRecordWriter(path)\n"
        "    for example in examples:\n        writer.write(str(convert_one(example, tokenizer)))\n\n\n"
        "def main():\n    tokenizer = tokens.Tokenizer({})\n"
        "    convert_all(open('train.txt').readlines(), tokenizer, 'train.tfrecord')\n"
        "    for line in open('eval.txt'):\n        convert_one(line, tokenizer)\n\n\n"
        "main()\n",
    )
    hosts = _hosts(sites)
    # neither the calls in loops nor `tokenize` in `convert_one`, which loops repeat: per item of those loops
    assert list(hosts) == [("convert_all", 17)]
    assert hosts["convert_all", 17].features["via"] == "`findall` (tokens.py line 12)"


def test_a_call_inside_the_callers_loop_is_per_item_work_not_a_site(tmp_path):
    sites = _project(
        tmp_path,
        "import tensorflow as tf\nfrom tokens import encode_all\n\n\n"
        "def load(files):\n    out = []\n    for name in files:\n        out.append(encode_all(open(name).readlines(), {}))\n"
        "    return out\n\n\n"
        "data = load(['a.txt', 'b.txt'])\n"
        "again = load(['c.txt'])\n",
    )
    # `load` tokenises per file in its loop: each call of it is a site, the call in its loop is not
    assert list(_hosts(sites)) == [("load", 12), ("load", 13)]


def test_a_helper_that_does_no_host_work_gives_no_site(tmp_path):
    sites = _project(
        tmp_path,
        "import tensorflow as tf\nfrom tokens import count, Tokenizer\n\n\n"
        "def total(texts):\n    return sum(len(t) for t in texts)\n\n\n"
        "n = count(['a', 'b'])\nm = total(['a'])\ntok = Tokenizer({})\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n",
    )
    assert _hosts(sites) == {}


def test_a_generator_that_tokenises_is_no_site_where_it_is_called_its_fit_carries_the_work(tmp_path):
    sites = _project(
        tmp_path,
        "import numpy as np\nimport tensorflow as tf\nfrom tokens import encode_all\n\n\n"
        "def batches(texts):\n    while True:\n        yield np.array(encode_all(texts, {})), np.zeros(1)\n\n\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "data = batches(['a b'])\n"
        "model.fit(data, steps_per_epoch=10)\n",
    )
    assert _hosts(sites) == {}
    fit = next(site for site in sites if site.api.endswith(".fit"))
    assert fit.features.get("input_host_work") == "`split` (tokens.py line 20)"


def test_a_function_returning_a_generator_is_no_site_and_a_site_counts_once_across_modules(tmp_path):
    """keras-yolo3's `data_generator_wrapper` returns a generator's call (drawn where it is iterated);
    keras-segmentation's `train` calls `verify` (a decode per image) in its own module, where that call
    is the site: a call of `train` from another module is not one again."""
    (tmp_path / "prep.py").write_text(
        "import cv2\n\n\n"
        "def images(paths):\n    while True:\n        for p in paths:\n            yield cv2.imread(p)\n\n\n"
        "def wrapper(paths):\n    return images(paths)\n\n\n"
        "def verify(paths):\n    for p in paths:\n        assert cv2.imread(p) is not None\n\n\n"
        "def train(paths):\n    verify(paths)\n"
    )
    sites = _project(tmp_path, "import tensorflow as tf\nimport prep\n\nprep.train(['a.png'])\ng = prep.wrapper(['a.png'])\n")
    assert _hosts(sites) == {}
    assert list(_hosts(analyse_file(tmp_path / "prep.py").callsites)) == [("verify", 20)]
