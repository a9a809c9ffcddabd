"""The benchmark's corpora: public TF/Keras code of different styles, pinned.

Two kinds: archives from PyPI (a wheel or sdist, by URL and sha256, downloaded into the cache and
extracted once, only the `include`d source files) and vendored files (notebooks and scripts copied
from public repositories by `python -m bench.realworld vendor`, outputs stripped, under
bench/realworld/vendored/<name>/ with their LICENSE and PROVENANCE.md).

The cache is `$GREENLINT_BENCH_CACHE`, else `$XDG_CACHE_HOME/greenlint-bench`, else
`~/.cache/greenlint-bench`.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tarfile
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENDORED = HERE / "vendored"
SUFFIXES = (".py", ".ipynb")
LICENCE_NAMES = ("LICENSE", "LICENSE.txt", "COPYING")


@dataclass(frozen=True)
class Corpus:
    name: str
    style: str
    licence: str
    origin: str  # "pypi <file>" or "<owner/repo>@<commit>"
    url: str = ""  # PyPI archives only
    sha256: str = ""
    include: tuple[str, ...] = ()  # path prefixes inside the archive (after an sdist's top folder)
    licence_file: str = ""  # the licence inside the archive, kept beside the sources
    notice: str = ""  # third-party portions of the kept files whose origin's licence differs (PROVENANCE.md says it)

    @property
    def vendored(self) -> bool:
        return not self.url


def _pypi(path: str) -> str:
    return "https://files.pythonhosted.org/packages/" + path


CORPORA: tuple[Corpus, ...] = (
    Corpus(
        "tensorflow-addons", "library (TF2, Keras 2 layers, optimizers, losses)", "Apache-2.0",
        "pypi tensorflow_addons-0.23.0 (wheel)",
        _pypi("24/94/80165946ec4986505cbfac29b5ae79544bfe2200d9d7883e1ad7c7342a55/"
              "tensorflow_addons-0.23.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"),
        "591b1c38cfe170727746a60983157ecbdef6a7062dfea8988558e1ab885b513a",
        ("tensorflow_addons/",), "tensorflow_addons-0.23.0.dist-info/LICENSE",
    ),
    Corpus(
        "larq", "library with its tests (binarized networks, Keras 2)", "Apache-2.0",
        "pypi larq-0.14.0 (sdist)",
        _pypi("6d/1f/417311835c679819c4b7bf166fbc01a7b6c0373a131ad1dc8a5da280f3e9/larq-0.14.0.tar.gz"),
        "a05bce4b0d9b26a1bc5423a72ecf89821c9bc467933306f1a1cd96480d213a4b",
        ("larq/",), "LICENSE",
    ),
    Corpus(
        "keras-tuner", "library (Keras 3, reached through its own backend module)", "Apache-2.0",
        "pypi keras_tuner-1.4.8 (sdist; licence stated in PKG-INFO)",
        _pypi("5a/44/79b36980769f401ec6e1d6ca72b6c129d3a05a365f00c69ef80335089b37/keras_tuner-1.4.8.tar.gz"),
        "809e78538ea5c8e048012ef1d680712d56f28cf9dfa4938a2daace1ab30c4828",
        ("keras_tuner/",), "PKG-INFO",
    ),
    Corpus(
        "tf-model-optimization", "library (pruning, quantization, clustering wrappers)", "Apache-2.0",
        "pypi tensorflow_model_optimization-0.8.1 (wheel; licence stated in METADATA)",
        _pypi("22/a8/c53b8c2cfab625f0fdb93ddb48fc51ed83c24c4e7cdb5b94814b3bbf28be/"
              "tensorflow_model_optimization-0.8.1-py2.py3-none-any.whl"),
        "182e5807ed12768984f9708c6f7dbc090e4678d265fdebdb50ee7e12620ae33a",
        ("tensorflow_model_optimization/",), "tensorflow_model_optimization-0.8.1.dist-info/METADATA",
    ),
    Corpus(
        "tf-models-official", "model zoo with its tests (NLP and vision modeling, legacy trainers)", "Apache-2.0",
        "pypi tf_models_official-2.20.0 (wheel, four packages of it)",
        _pypi("76/bc/4a1fbffbb33163256b2d2eb98a5a33b9034a0ef52bd5b2b603fc38c3f49c/"
              "tf_models_official-2.20.0-py2.py3-none-any.whl"),
        "0bf173f9ea83e1a83f983b35fe515e9d9bfd294b27538f6e8806afeb5a069150",
        ("official/nlp/modeling/", "official/vision/modeling/", "official/legacy/image_classification/",
         "official/legacy/transformer/"),
        "tf_models_official-2.20.0.dist-info/licenses/LICENSE",
    ),
    Corpus(
        "handson-ml", "book notebooks, TF1 (graphs and sessions)", "Apache-2.0",
        "ageron/handson-ml@b7051594afbb1d835f5e031af8664c4363878050",
        include=("09_up_and_running_with_tensorflow.ipynb", "10_introduction_to_artificial_neural_networks.ipynb",
                 "11_deep_learning.ipynb", "12_distributed_tensorflow.ipynb", "14_recurrent_neural_networks.ipynb",
                 "15_autoencoders.ipynb", "16_reinforcement_learning.ipynb", "extra_capsnets.ipynb",
                 "extra_tensorflow_reproducibility.ipynb"),
        licence_file="LICENSE",
    ),
    Corpus(
        "handson-ml2", "book notebooks, TF2 Keras", "Apache-2.0",
        "ageron/handson-ml2@1e2115277b50f6c584cd668fa30e3af309a5b136",
        include=("10_neural_nets_with_keras.ipynb", "11_training_deep_neural_networks.ipynb",
                 "12_custom_models_and_training_with_tensorflow.ipynb", "13_loading_and_preprocessing_data.ipynb",
                 "15_processing_sequences_using_rnns_and_cnns.ipynb", "16_nlp_with_rnns_and_attention.ipynb",
                 "18_reinforcement_learning.ipynb", "19_training_and_deploying_at_scale.ipynb"),
        licence_file="LICENSE",
    ),
    Corpus(
        "tensorflow-addons-tests", "library tests (pytest, parametrised over dtypes and modes) and tutorial notebooks",
        "Apache-2.0", "tensorflow/addons@d208d752e98c310280938efa939117bf635a60a8",
        include=("tensorflow_addons/*/tests/*.py", "docs/tutorials/"),
        licence_file="LICENSE",
    ),
    Corpus(
        "tf-examples-courses", "course notebooks (Udacity: TF2 Keras intro, TF1 deep learning)", "Apache-2.0",
        "tensorflow/examples@608f7db8c511e3dcc420afc564496e4516ceb800",
        include=("courses/udacity_intro_to_tensorflow_for_deep_learning/", "courses/udacity_deep_learning/"),
        licence_file="LICENSE",
    ),
    Corpus(
        "tf-examples-scripts", "scripts and their tests (custom training loops, distribution, TF Lite)",
        "Apache-2.0", "tensorflow/examples@608f7db8c511e3dcc420afc564496e4516ceb800",
        include=("tensorflow_examples/models/", "tensorflow_examples/profiling/",
                 "lite/examples/speech_commands/ml/", "lite/examples/reinforcement_learning/ml/",
                 "lite/examples/recommendation/ml/"),
        licence_file="LICENSE",
    ),
    # The research benchmark (issue 26): application and research training programs, each with a careful
    # engineer's reading in readings/<name>.toml written before greenlint ran on it.
    Corpus(
        "keras-yolo2", "research: YOLOv2 detector trained from Python generators (Keras 2, script and notebook)",
        "MIT", "experiencor/keras-yolo2@8bc3fcdc123a5d6b9624ed4188e07b876b79dac5",
        include=("backend.py", "frontend.py", "preprocessing.py", "train.py", "predict.py", "utils.py",
                 "gen_anchors.py", "Yolo Step-by-Step.ipynb"),
        licence_file="LICENSE",
    ),
    Corpus(
        "efficientdet", "research: EfficientDet detector, Keras/tf.keras, Sequence generators, COCO callback",
        "Apache-2.0", "xuannianz/EfficientDet@030fb7e10ab69a297c7723120c2d1be856a852c0",
        include=("train.py", "model.py", "efficientnet.py", "layers.py", "losses.py", "callbacks.py",
                 "initializers.py", "keras_.py", "tfkeras.py", "inference.py", "inference_video.py",
                 "generators/__init__.py", "generators/common.py", "generators/pascal.py", "generators/coco.py",
                 "generators/csv_.py", "eval/common.py", "eval/pascal.py", "eval/coco.py", "utils/__init__.py",
                 "utils/anchors.py", "utils/image.py"),
        licence_file="LICENSE",
    ),
    Corpus(
        "tensorflow-wavenet", "research: WaveNet audio generation, TF1 graph, queue input, session loops",
        "MIT", "ibab/tensorflow-wavenet@3c973c038c8c2c20fef0039f111cb04139ff594b",
        include=("train.py", "generate.py", "wavenet/"),
        licence_file="LICENSE",
    ),
    Corpus(
        "bert4keras", "research: BERT-family NLP fine-tuning and pretraining (Keras 2 / tf.keras), model factory",
        "Apache-2.0", "bojone/bert4keras@c1ae0dc5eff66d329ab3c5c7ee369124ddbb6f87",
        include=("bert4keras/backend.py", "bert4keras/models.py", "bert4keras/layers.py", "bert4keras/snippets.py",
                 "examples/task_sentiment_albert.py", "examples/task_seq2seq_autotitle.py",
                 "examples/task_sequence_labeling_ner_crf.py", "examples/task_iflytek_adversarial_training.py",
                 "examples/task_language_model.py", "pretraining/pretraining.py"),
        licence_file="LICENSE",
    ),
    Corpus(
        "baselines", "research: RL agents (DQN, PPO2), TF1 sessions passed between modules",
        "MIT", "openai/baselines@ea25b9e8b234e6ee1bca43083f8f3cf974143998",
        include=("baselines/deepq/", "baselines/ppo2/model.py", "baselines/ppo2/ppo2.py", "baselines/ppo2/runner.py",
                 "baselines/common/tf_util.py", "baselines/common/models.py", "baselines/common/policies.py",
                 "baselines/common/distributions.py", "baselines/common/mpi_adam.py"),
        licence_file="LICENSE",
    ),
    Corpus(
        "unet", "research: U-Net segmentation (Keras 2), generators from folders, script and notebooks",
        "MIT", "zhixuhao/unet@b45af4d458437d8281cc218a07fd4380818ece4a",
        include=("main.py", "model.py", "data.py", "trainUnet.ipynb", "dataPrepare.ipynb"),
        licence_file="LICENSE",
    ),
    Corpus(
        "tf2-gan", "research: GAN training (TF2, tf.function GradientTape steps, tf.data from image files)",
        "MIT", "LynnHo/DCGAN-LSGAN-WGAN-GP-DRAGAN-Tensorflow-2@2bf0c8b6adbc5f0b9b0abb2149fe9cf47a978976",
        include=("train.py", "module.py", "data.py", "tf2gan/", "tf2lib/", "pylib/", "imlib/"),  # v1/ (TF1): Python 2
        licence_file="LICENSE",
    ),
    Corpus(
        "image-segmentation-keras", "research: segmentation library (Keras 2 / tf.keras), models built through a "
        "registry, trained from Python generators, command-line entry", "MIT",
        "divamgupta/image-segmentation-keras@1b2ba53ae49387c2d1abbd9a2f4a9a45eea6912f",
        include=("keras_segmentation/",),
        licence_file="LICENSE",
    ),
    Corpus(
        "neural-style-transfer", "research: neural style transfer by optimising the image (Keras 2 backend "
        "functions with SciPy L-BFGS, and a TF2 port with its own L-BFGS), VGG16/19 features, scripts",
        "Apache-2.0", "titu1994/Neural-Style-Transfer@d09334855211579ea1adb9ad04f09fc8a7573850",
        include=("INetwork.py", "inetwork_tf.py", "tf_bfgs.py", "utils.py"),
        licence_file="LICENCE",
    ),
    Corpus(
        "deep-q-learning", "research: DQN and Double DQN agents for CartPole (Keras 2), one predict per "
        "environment step, experience replay fitted one sample at a time, scripts",
        "MIT", "keon/deep-q-learning@7856f2f003455c6c4935c902d722fe435bded863",
        include=("dqn.py", "ddqn.py", "dqn_batch.py"),
        licence_file="LICENSE",
    ),
    Corpus(
        "transformer", "research: Transformer translation trainer (TF1 graph, tf.data from text files, session "
        "loop with per-epoch evaluation and greedy decoding), scripts",
        "Apache-2.0", "Kyubyong/transformer@fb023bb097e08d53baf25b46a9da490beba51a21",
        include=("train.py", "test.py", "model.py", "modules.py", "data_load.py", "utils.py", "hparams.py",
                 "prepro.py"),  # tf1.2_legacy/ (the older TF 1.2 version) left out
        licence_file="LICENSE",
    ),
    Corpus(
        "keras-gan", "research: a collection of GANs (Keras 2), each a script training its models with "
        "train_on_batch in a Python loop over random batches of in-memory data or images read from disk",
        "MIT", "eriklindernoren/Keras-GAN@636ec0533df1d1ba2bfe4ec9ae7aa66bd7ee2177",  # read from a fork's
        # snapshot holding this upstream commit (the upstream snapshot, with its image history, is too large)
        include=("gan/gan.py", "dcgan/dcgan.py", "wgan/wgan.py", "wgan_gp/wgan_gp.py", "acgan/acgan.py",
                 "cyclegan/", "pix2pix/", "srgan/"),
        licence_file="LICENSE",
    ),
    Corpus(
        "keras-yolo3", "research: YOLOv3 detector (Keras 2), trained in two stages with fit_generator from a "
        "Python generator of augmented images, Darknet weights converted, image and video detection, scripts",
        "MIT", "qqwweee/keras-yolo3@e6598d13c703029b2686bc2eb8d5c09badf42992",
        include=("train.py", "train_bottleneck.py", "yolo.py", "yolo_video.py", "convert.py", "yolo3/"),
        licence_file="LICENSE",
    ),
    Corpus(
        "dcgan-tensorflow", "research: DCGAN (TF1 graph of hand-written conv ops, session.run steps fed from NumPy "
        "batches of JPEGs decoded on the host, summaries and checkpoints in the loop), scripts",
        "MIT", "carpedm20/DCGAN-tensorflow@62c9a2a7f74505cad30858bf40307c93e5bd9293",
        include=("main.py", "model.py", "ops.py", "utils.py"),  # download.py and web/ (a demo page) left out
        licence_file="LICENSE",
    ),
    Corpus(
        "keras-rl", "research: RL agents (DQN, DDPG; Keras 2 models compiled into backend functions) trained "
        "one environment step at a time from a replay memory, example scripts for Atari, CartPole, Pendulum",
        "MIT", "keras-rl/keras-rl@216c3145f3dc4d17877be26ca2185ce7db462bad",
        include=("rl/__init__.py", "rl/agents/__init__.py", "rl/core.py", "rl/agents/dqn.py", "rl/agents/ddpg.py",
                 "rl/memory.py", "rl/policy.py", "rl/random.py", "rl/util.py", "rl/callbacks.py",
                 "examples/dqn_atari.py", "examples/dqn_cartpole.py", "examples/ddpg_pendulum.py"),
        # the CEM and SARSA agents (imported by rl/agents/__init__.py, run by no example here) left out
        licence_file="LICENSE",
    ),
    Corpus(
        "simclr", "research: SimCLR contrastive pretraining (TF2: tf.function loop of many steps per call under a "
        "distribution strategy, GradientTape, LARS, a TFDS tf.data pipeline with parallel augmentation), scripts",
        "Apache-2.0", "google-research/simclr@383d4143fd8cf7879ae10f1046a9baeb753ff438",
        include=("tf2/run.py", "tf2/model.py", "tf2/objective.py", "tf2/data.py", "tf2/data_util.py", "tf2/resnet.py",
                 "tf2/metrics.py", "tf2/lars_optimizer.py"),  # the TF1 version at the root and the colabs left out
        licence_file="LICENSE",
    ),
    Corpus(
        "face-classification", "research: application: emotion and gender CNNs (Keras 2) trained with fit_generator "
        "from an ImageDataGenerator and a Python generator of augmented JPEGs; webcam, image, web and gradcam "
        "demos predicting face by face", "MIT",
        "oarriaga/face_classification@b861d21b0e76ca5514cdeb5b56a689b7318584f4",
        include=("src/", "REQUIREMENTS.txt"),  # the pins: Keras 2.0.5 on TensorFlow 1.1
        licence_file="LICENSE",
    ),
    Corpus(
        "age-gender-estimation", "research: application: age and gender heads on a Keras Application (tf.keras, "
        "MirroredStrategy) trained with fit from an augmenting Sequence, ResNet50 age model (Keras 2) trained "
        "with fit_generator; webcam/folder demo and an evaluation predicting in a loop", "MIT",
        "yu4u/age-gender-estimation@6af6148f6eb09bf16e7164490730c71c61c89f3e",
        include=("train.py", "demo.py", "evaluate_appa_real.py", "create_db.py", "src/", "src/config.yaml",
                 "age_estimation/"),
        licence_file="LICENSE",
    ),
    Corpus(
        "mask-rcnn", "research: Mask R-CNN instance segmentation (Keras 2, TF1 backend), the model in a wrapper "
        "class (self.keras_model) trained with fit_generator from a Python generator in stages, detection one "
        "image or video frame per call, sample scripts and a notebook", "MIT",
        "matterport/Mask_RCNN@3deaec5d902d16e1daf56b62d5971d428dc920bc",  # read from a fork's snapshot holding
        # this upstream commit (the upstream snapshot, with its image history, is too large)
        include=("mrcnn/", "samples/balloon/balloon.py", "samples/coco/coco.py", "samples/nucleus/nucleus.py",
                 "samples/shapes/shapes.py", "samples/shapes/train_shapes.ipynb", "samples/demo.ipynb"),
        licence_file="LICENSE",
    ),
    Corpus(
        "keras-retinanet", "research: RetinaNet detector (tf.keras), Sequence generators for several datasets, "
        "fit_generator with a per-epoch mAP callback, evaluation one image per predict_on_batch, a package with "
        "its command lines", "Apache-2.0", "fizyr/keras-retinanet@7ac91dfbbacce77d6d9633fc09e16cd0ee71fd5e",
        include=("keras_retinanet/", "examples/"),  # tests/ left out
        licence_file="LICENSE",
    ),
    Corpus(
        "pix2pix-tensorflow", "research: pix2pix conditional GAN (TF1 graph, queue input of image files decoded "
        "in the graph, a Supervisor session loop with summaries and checkpoints every N steps), a script and its "
        "data-preparation tools", "MIT", "affinelayer/pix2pix-tensorflow@0f2174424356162920fc25067e63db2bcf19f4e7",
        include=("pix2pix.py", "tools/process.py", "tools/tfimage.py"),  # server/ (a demo) and docker/ left out
        licence_file="LICENSE.txt",
    ),
    Corpus(
        "attention-ocr", "research: attention OCR seq2seq (TF1 graph through tf.compat.v1, a session handed to a "
        "model class, batches read in a second session and fed through feed_dict, summaries every step, "
        "checkpoints every 100 steps), a package with its command line", "MIT",
        "emedvedev/attention-ocr@fd50b4c3e828437d420ebd16c35876a57448db3b",
        include=("aocr/",),
        licence_file="LICENSE.md",
    ),
    Corpus(
        "gcn", "research: graph convolutional network for node classification (TF1 graph, sparse placeholders "
        "fed the whole constant graph on every full-batch step and validation, early stopping on the validation "
        "loss), a package with its training script", "MIT",
        "tkipf/gcn@39a4089fe72ad9f055ed6fdb9746abdcfebc4d81",
        include=("gcn/train.py", "gcn/models.py", "gcn/layers.py", "gcn/utils.py", "gcn/metrics.py",
                 "gcn/inits.py", "gcn/__init__.py", "setup.py"),  # the citation data sets left out
        licence_file="LICENCE",
    ),
    Corpus(
        "began", "research: BEGAN face generation (TF1 graph of slim convolutions, queue input of JPEG files "
        "decoded in the graph, a Supervisor session loop with a dictionary of fetches, summaries every 50 steps), "
        "scripts", "Apache-2.0", "carpedm20/BEGAN-tensorflow@722b3f1a2ff9fd79b8508d3fd29b2a15e4e8ae36",
        include=("main.py", "trainer.py", "models.py", "data_loader.py", "config.py", "utils.py"),
        # download.py, folder.py (a PyTorch loader) and layers.py (unused) left out
        licence_file="LICENSE",
    ),
    Corpus(
        "big-transfer", "research: BiT transfer learning (TF2 Keras ResNet-v2 subclassed layers under a "
        "MirroredStrategy, fit on a tfds pipeline with a per-batch learning-rate callback; a colab fine-tuning a "
        "TF Hub KerasLayer)", "Apache-2.0",
        "google-research/big_transfer@140de6e704fd8d61f3e5ea20ffde130b7d5fd065",
        include=("bit_tf2/", "bit_common.py", "bit_hyperrule.py", "input_pipeline_tf2_or_jax.py",
                 "colabs/big_transfer_tf2.ipynb"),  # the JAX and PyTorch versions and their colabs left out
        licence_file="LICENSE",
    ),
    # Research corpora from PyPI archives (pinned, downloaded into the cache like the libraries above,
    # never committed): read before greenlint ran on them, like the vendored ones.
    Corpus(
        "gpt-2-simple", "research: GPT-2 fine-tuning and sampling (TF1 graph through tf.compat.v1, one session "
        "passed between the package's functions, gradient accumulation, sampling while_loop), a library "
        "and its command line", "MIT",
        "pypi gpt_2_simple-0.8.1 (sdist)",
        _pypi("ec/d5/d1e9ab56bd82bc206fbd26a284115bee8101c2057a03d6ce8bcd069a1525/gpt_2_simple-0.8.1.tar.gz"),
        "0d620a17b4c4592190b637548afa0aaf26231c71a107165ee91e90929e398c11",
        ("gpt_2_simple/",), "LICENSE",
    ),
    Corpus(
        "textgenrnn", "research: character/word LSTM text generator (tf.keras), trained with fit on a Python "
        "generator of one-hot batches, sampled one character per predict, a library", "MIT",
        "pypi textgenrnn-2.0.0 (sdist; licence stated in PKG-INFO)",
        _pypi("27/60/419daf7e2d87bcafc6f0f65736ce76e5cc83cebbae758dd59b4c1fae99cd/textgenrnn-2.0.0.tar.gz"),
        "c2b6f1c201c76d5a6021079e95a8db499bbe15d9f3448d33cb51c0cd496c86f8",
        ("textgenrnn/",), "PKG-INFO",
    ),
    Corpus(
        "bert", "research: BERT sentence-classification fine-tuning (TF1 TPUEstimator falling back to GPU/CPU, "
        "TFRecord features written by a Python tokenizer), its model and optimizer modules, a script",
        "Apache-2.0", "pypi bert-tensorflow-1.0.4 (sdist; licence stated in PKG-INFO and each file)",
        _pypi("3b/19/a93c93533f2d9d2c31f3974d4e4ab7faa2127c87ddb6f161ceaa67077df5/bert-tensorflow-1.0.4.tar.gz"),
        "ae3e07c0d89439f42d0ce3f5900be6aa98025ceaf264c3a0e738e6d6f9cfe7e9",
        ("bert/run_classifier.py", "bert/modeling.py", "bert/optimization.py", "bert/tokenization.py",
         "bert/__init__.py"), "PKG-INFO",
    ),
    Corpus(
        "tf-gan-cyclegan", "research: CycleGAN training example of TF-GAN (TF1 graph through tf.compat.v1, "
        "tf.data from image files, gan_train's monitored session with hooks), scripts and modules",
        "Apache-2.0", "pypi tensorflow_gan-2.1.0 (wheel, its cyclegan example)",
        _pypi("4e/53/4a3fc9d00586ed47ce123f0b64e558f745bb87f3339f362c221bd4d7b978/"
              "tensorflow_gan-2.1.0-py2.py3-none-any.whl"),
        "a6869fc145c9df55bc337f255d7d27c2a36f5bed58507dde7bd9de5cfc2a9421",
        tuple(f"tensorflow_gan/examples/cyclegan/{name}.py" for name in
              ("train", "train_lib", "data_provider", "networks", "generator", "discriminator")),
        "tensorflow_gan-2.1.0.dist-info/LICENSE",
    ),
    Corpus(
        "super-resolution", "research: single-image super-resolution (EDSR, WDSR, SRGAN; TF2 tf.function "
        "GradientTape trainers, compile/fit, tf.data with a file cache), scripts and notebooks",
        "Apache-2.0", "krasserm/super-resolution@179320c5cb005f57cd7e126cd8b3b669c793585a",
        include=("train.py", "data.py", "utils.py", "model/", "example-edsr.ipynb", "example-wdsr.ipynb",
                 "example-srgan.ipynb", "article.ipynb", "environment.yml"),  # the pin: TensorFlow 2.3.1
        licence_file="LICENSE",
    ),
    Corpus(
        "yolov3-tf2", "research: YOLOv3 detector (TF2, compile/fit or an eager GradientTape loop, TFRecord "
        "pipeline), detection scripts, tools and a Colab notebook",
        "MIT", "zzh8829/yolov3-tf2@2784050f2fc1ff060f4c8b3ac2db231370569aa8",
        include=("train.py", "detect.py", "detect_video.py", "convert.py", "yolov3_tf2/", "tools/",
                 "colab_gpu.ipynb", "requirements.txt", "requirements-gpu.txt"),  # the pins: TensorFlow 2.11 / 2.12
        licence_file="LICENSE",
    ),
    Corpus(
        "ugatit", "research: U-GAT-IT image-to-image translation GAN (TF1 graph, tf.contrib.data pipeline, "
        "session loop with summaries), scripts",
        "MIT", "taki0112/UGATIT@d508e8f5188e47000d79d8aecada0cc9119e0d56",
        include=("main.py", "UGATIT.py", "ops.py", "utils.py"),
        licence_file="LICENSE",
    ),
    Corpus(
        "cnn-text-classification", "research: sentence classification CNN (TF1 graph, session steps fed from "
        "NumPy batches, summaries and checkpoints in the step loop), scripts",
        "Apache-2.0", "dennybritz/cnn-text-classification-tf@18762b459e21d9c70e5c242f8d43fc4e6db37a0d",
        include=("train.py", "eval.py", "text_cnn.py", "data_helpers.py"),
        licence_file="LICENSE",
        notice="`data_helpers.py`'s `clean_str` says it is taken from yoonkim/CNN_sentence (`process_data.py`), a "
        "repository with no licence file: that portion's terms are its author's, not this repository's Apache-2.0; "
        "it is kept unchanged because the reading's line numbers count it, and nothing in greenlint uses it",
    ),
    Corpus(
        "ultrasound-nerve-segmentation", "research: medical U-Net segmentation (Keras 2), arrays fitted from "
        ".npy files with validation_split, scripts",
        "MIT", "jocicmarko/ultrasound-nerve-segmentation@df9eb77f0ac3b84ae125b6b177ef2e4429818d66",
        include=("train.py", "data.py", "submission.py"),
        licence_file="LICENSE.md",
    ),
    Corpus(
        "neural-collaborative-filtering", "research: neural collaborative filtering recommenders (Keras 1), "
        "negatives sampled on the host every epoch, a leave-one-out evaluation of one predict per user",
        "Apache-2.0", "hexiangnan/neural_collaborative_filtering@4aab159e81c44b062c091bdaed0ab54ac632371f",
        include=("GMF.py", "MLP.py", "NeuMF.py", "evaluate.py", "Dataset.py"),
        licence_file="LICENSE",
    ),
    Corpus(
        "deeplab-resnet", "research: DeepLab-v2 ResNet-101 semantic segmentation (TF1 graph, queue input of image "
        "files decoded in the graph, a session step loop with checkpoints and image summaries every N steps, "
        "multi-scale training with gradient accumulation), training, fine-tuning, evaluation and inference scripts",
        "MIT", "DrSleep/tensorflow-deeplab-resnet@066023c033624e6c8154340e06e8fbad4f702bdf",
        include=("train.py", "train_msc.py", "fine_tune.py", "evaluate.py", "evaluate_msc.py", "inference.py",
                 "npy2ckpt.py", "deeplab_resnet/", "kaffe/tensorflow/network.py", "requirements.txt"),
        licence_file="LICENSE",  # convert.py and the rest of kaffe/ (the Caffe converter) left out
    ),
    Corpus(
        "glow", "research: Glow generative flow (TF1 graph, Horovod data parallelism, session steps fed from a "
        "tf.data TFRecord iterator or from NumPy batches of a Keras ImageDataGenerator, gradient checkpointing), "
        "training script, model, data preparation and a web demo",
        "MIT", "openai/glow@91b2c577a5c110b2b38761fc56d81f7d87f077c1",
        include=("train.py", "model.py", "optim.py", "tfops.py", "utils.py", "graphics.py",
                 "memory_saving_gradients.py", "data_loaders/", "demo/", "requirements.txt"),
        licence_file="LICENSE",
    ),
    Corpus(
        "ssd-tensorflow", "research: SSD object detector (VGG-16 300/512, TF1 graph with TF-Slim: slim.learning.train "
        "on a queue pipeline of TFRecords preprocessed in the graph, summaries and checkpoints every N seconds, "
        "slim evaluation loop), training and evaluation scripts and their modules",
        "Apache-2.0", "balancap/SSD-Tensorflow@e0e3104d3a2cc5d830fad041d4e56ebcf84caac3",
        # no LICENSE file: the licence is stated in each file's header; only files carrying it are taken
        # (nets/caffe_scope.py, nets/xception.py, caffe_to_tensorflow.py and the notebooks have none)
        include=("train_ssd_network.py", "eval_ssd_network.py", "tf_utils.py", "tf_convert_data.py",
                 "datasets/", "deployment/", "preprocessing/", "tf_extended/", "notebooks/visualization.py",
                 "nets/__init__.py", "nets/custom_layers.py", "nets/nets_factory.py", "nets/np_methods.py",
                 "nets/ssd_common.py", "nets/ssd_vgg_300.py", "nets/ssd_vgg_512.py", "nets/vgg.py"),
        licence_file="train_ssd_network.py",  # its header states Apache-2.0; copied as LICENSE
    ),
    Corpus(
        "fast-style-transfer", "research: fast neural style transfer (Johnson et al.'s image transform net with a "
        "VGG-19 perceptual loss, TF1 graph: session steps fed with COCO images decoded in the training loop, "
        "summaries every step), training and stylising scripts",
        "Apache-2.0", "hwalsuklee/tensorflow-fast-style-transfer@50438ad8b620af7d45ab8c4e050a7044d68ebe46",
        # vgg19.py states GPLv3 in its header, transform.py is "mostly borrowed" and utils.py "borrowed" from
        # lengstrom/fast-style-transfer, which is GPLv3: all three left out (the reading names their work from
        # what the trainer builds and calls)
        include=("run_train.py", "run_test.py", "style_transfer_trainer.py", "style_transfer_tester.py"),
        licence_file="LICENSE",
        notice="`style_transfer_trainer.py`'s `_get_total_variation_loss` (14 lines) says it is borrowed from "
        "lengstrom/fast-style-transfer (`src/optimize.py`), which is GPL-3.0: that portion is its authors' under "
        "GPL-3.0, not under this repository's Apache-2.0; it is kept unchanged because the reading's line numbers "
        "count it, and nothing in greenlint uses it",
    ),
    Corpus(
        "tf-faster-rcnn", "research: Faster R-CNN two-stage detector (VGG-16, ResNet or MobileNet backbones, TF1 "
        "graph with TF-Slim: RPN anchor and proposal target layers in NumPy through tf.py_func, one image per "
        "step fed from a Python data layer, per-image testing with NMS), training, testing and demo tools and "
        "their library",
        "MIT", "endernewton/tf-faster-rcnn@b4da911705925ec00e8359b76a2d7260f6d1d314",
        include=("tools/", "lib/datasets/", "lib/layer_utils/", "lib/model/", "lib/nets/", "lib/nms/py_cpu_nms.py",
                 "lib/nms/__init__.py", "lib/roi_data_layer/", "lib/utils/", "lib/setup.py",
                 "experiments/cfgs/res101.yml", "experiments/cfgs/vgg16.yml"),
        licence_file="LICENSE",
    ),
    Corpus(
        "srez", "research: image super-resolution GAN (4x upscaling of 16x16 CelebA faces, TF1 graph: a queue "
        "pipeline of JPEGs augmented in the graph, generator and discriminator steps in one session run, sample "
        "grids every 200 batches, training bounded by wall time), training script, model and demo",
        "MIT", "david-gpu/srez@d65a2aabdb04122be95e61c8aa420036cd6336d6",
        include=("srez_main.py", "srez_train.py", "srez_input.py", "srez_model.py", "srez_demo.py",
                 "requirements.txt"),
        licence_file="LICENSE.md",
    ),
)
BY_NAME = {c.name: c for c in CORPORA}


def cache_dir() -> Path:
    """Where downloaded archives and extracted corpora live."""
    if os.environ.get("GREENLINT_BENCH_CACHE"):
        return Path(os.environ["GREENLINT_BENCH_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "greenlint-bench"


def root(corpus: Corpus) -> Path:
    """The folder holding the corpus's files (nothing is downloaded here: see `ensure`)."""
    if corpus.vendored:
        return VENDORED / corpus.name
    return cache_dir() / "corpora" / f"{corpus.name}-{corpus.sha256[:12]}"


def ensure(corpus: Corpus) -> Path:
    """The corpus's folder, downloading and extracting a PyPI archive the first time; raises when the
    download fails or its sha256 differs from the pin."""
    folder = root(corpus)
    if corpus.vendored or (folder / ".complete").is_file():
        return folder
    data = _download(corpus)
    tmp = folder.with_name(f"{folder.name}.tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    for name, content in _members(corpus.url, data):
        inner = _relative(corpus, name)
        if inner is None:
            continue
        target = tmp / inner
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    (tmp / ".complete").write_text(corpus.sha256 + "\n")
    shutil.rmtree(folder, ignore_errors=True)  # a half-written folder of an interrupted run
    try:
        tmp.rename(folder)
    except OSError:  # another process extracted it meanwhile
        shutil.rmtree(tmp, ignore_errors=True)
    return folder


def _relative(corpus: Corpus, member: str) -> str | None:
    """The member's path in the corpus folder, or None when it is not part of the corpus."""
    if corpus.url.endswith(".tar.gz"):
        member = member.split("/", 1)[1] if "/" in member else ""
    if member.startswith("/") or ".." in member.split("/"):
        return None
    if member == corpus.licence_file:
        return "LICENCE-" + Path(member).name
    if member.endswith(SUFFIXES) and member.startswith(corpus.include):
        return member
    return None


def _download(corpus: Corpus) -> bytes:
    archive = cache_dir() / "archives" / corpus.url.rsplit("/", 1)[1]
    if archive.is_file() and hashlib.sha256(archive.read_bytes()).hexdigest() == corpus.sha256:
        return archive.read_bytes()
    with urllib.request.urlopen(corpus.url, timeout=120) as response:
        data = response.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != corpus.sha256:
        raise RuntimeError(f"{corpus.url}: sha256 {digest}, pinned {corpus.sha256}")
    archive.parent.mkdir(parents=True, exist_ok=True)
    archive.write_bytes(data)
    return data


def _members(url: str, data: bytes):
    """(name, bytes) of every regular file of a wheel or a .tar.gz."""
    if url.endswith(".whl"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for name in archive.namelist():
                if not name.endswith("/"):
                    yield name, archive.read(name)
        return
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for member in archive.getmembers():
            if member.isfile():
                yield member.name, archive.extractfile(member).read()
