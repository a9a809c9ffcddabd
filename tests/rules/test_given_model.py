"""GL602 on a trainer class whose model its users build (greenlint.rules.given_model): reported at
the class's training where a script or notebook beside it hands it a large architecture."""

from __future__ import annotations

from tests.rules.conftest import check_in_project, notebook

#: Every training material: the fake predictor's figures are small.
MATERIAL = {"material-saving-j": 0.0}

#: super-resolution's shape: a trainer class runs a `tf.function` step on the model it is given.
TRAINER = (
    "import tensorflow as tf\n\n\n"
    "class Trainer:\n"
    "    def __init__(self, model, loss):\n"
    "        self.model = model\n"
    "        self.loss = loss\n"
    "        self.optimizer = tf.keras.optimizers.Adam(1e-4)\n\n"
    "    def train(self, dataset, steps=300000):\n"
    "        for lr, hr in dataset.take(steps):\n"
    "            self.train_step(lr, hr)\n\n"
    "    @tf.function\n"
    "    def train_step(self, lr, hr):\n"
    "        with tf.GradientTape() as tape:\n"
    "            loss = self.loss(hr, self.model(lr, training=True))\n"
    "        gradients = tape.gradient(loss, self.model.trainable_variables)\n"
    "        self.optimizer.apply_gradients(zip(gradients, self.model.trainable_variables))\n\n\n"
    "class EdsrTrainer(Trainer):\n"
    "    def __init__(self, model):\n"
    "        super().__init__(model, loss=tf.keras.losses.MeanAbsoluteError())\n"
)
STEP_LINE = TRAINER.splitlines().index("            self.train_step(lr, hr)") + 1


def _lines(tmp_path, predictor, files):
    found = check_in_project(tmp_path, predictor, {"train.py": TRAINER, **files}, "train.py", "GL602", MATERIAL)
    return [(d.span.line, d.message) for d in found]


def test_a_notebook_handing_a_large_architecture_to_a_subclass_is_evidence(tmp_path, predictor):
    driver = notebook("from model.edsr import edsr\nfrom train import EdsrTrainer\n",
                      "trainer = EdsrTrainer(model=edsr(scale=4, num_res_blocks=16))\ntrainer.train(ds)\n")
    [(line, message)] = _lines(tmp_path, predictor, {"example.ipynb": driver})
    assert line == STEP_LINE
    assert "example.ipynb gives EdsrTrainer() the model edsr() builds, named after the edsr architecture" in message
    assert "its step scaling its loss" in message


def test_a_name_the_script_bound_to_the_factory_is_evidence(tmp_path, predictor):
    driver = "from nets import resnet50\nfrom train import Trainer\nnet = resnet50()\nTrainer(net, loss).train(ds)\n"
    [(line, message)] = _lines(tmp_path, predictor, {"main.py": driver})
    assert line == STEP_LINE and "resnet50()" in message


def test_no_evidence_is_no_finding(tmp_path, predictor):
    for driver in (
        "from train import Trainer\nTrainer(tf.keras.Sequential([layer]), loss).train(ds)\n",  # of any size
        "from train import Trainer\nTrainer(build_model(), loss).train(ds)\n",  # named after nothing
        "from train import Trainer\nTrainer(EDSR(), loss).train(ds)\n",  # a class: a layer of any size
        "from train import Trainer\nnet = edsr()\nevaluate(net)\n",  # the trainer not called
        # the driver sets the policy before it builds the model
        "import tensorflow as tf\nfrom train import Trainer\n"
        "tf.keras.mixed_precision.set_global_policy('mixed_float16')\nTrainer(edsr(), loss).train(ds)\n",
    ):
        assert _lines(tmp_path, predictor, {"main.py": driver}) == [], driver


def test_a_user_elsewhere_or_a_test_is_not_read(tmp_path, predictor):
    driver = "from train import Trainer\nTrainer(edsr(), loss).train(ds)\n"
    assert _lines(tmp_path, predictor, {"scripts/main.py": driver}) == []  # not beside the module
    assert _lines(tmp_path / "tested", predictor, {"test_train.py": driver}) == []
    assert len(_lines(tmp_path / "driven", predictor, {"main.py": driver})) == 1


def test_each_trainer_class_is_its_own_finding(tmp_path, predictor):
    own = (
        "\n\nclass GanTrainer:\n"
        "    def __init__(self, generator):\n"
        "        self.generator = generator\n"
        "        self.vgg = vgg_54()\n"
        "        self.optimizer = tf.keras.optimizers.Adam(1e-4)\n\n"
        "    def train(self, dataset):\n"
        "        for lr, hr in dataset:\n"
        "            self.train_step(lr, hr)\n\n"
        "    @tf.function\n"
        "    def train_step(self, lr, hr):\n"
        "        with tf.GradientTape() as tape:\n"
        "            loss = tf.reduce_mean(self.vgg(self.generator(lr, training=True)) - self.vgg(hr))\n"
        "        grads = tape.gradient(loss, self.generator.trainable_variables)\n"
        "        self.optimizer.apply_gradients(zip(grads, self.generator.trainable_variables))\n"
    )
    files = {"train.py": TRAINER + own, "main.py": "from train import EdsrTrainer\nEdsrTrainer(edsr()).train(ds)\n"}
    found = check_in_project(tmp_path, predictor, files, "train.py", "GL602", MATERIAL)
    lines = (TRAINER + own).splitlines()
    own_step = len(lines) - lines[::-1].index("            self.train_step(lr, hr)")
    assert [d.span.line for d in found] == [STEP_LINE, own_step]
    assert "vgg_54()" in found[1].message and "main.py gives EdsrTrainer()" in found[0].message
