"""The fallback chain on the bundled catalog and on bare names."""

from greenlint.predict.hierarchy import Hierarchy


def test_chain_with_the_bundled_catalog():
    chain = Hierarchy().chain("tensorflow.keras.Sequential.fit")
    levels = [level for level, _ in chain]
    assert ("class", "tensorflow.keras.Model.fit") in chain  # the same method on a base class
    assert ("module", "tensorflow.keras.*.fit") in chain
    assert ("kind", "model-training") in chain
    assert levels == sorted(levels, key=["class", "module", "family", "kind", "global"].index)
    assert chain[-1] == ("global", "*")


def test_chain_without_a_catalog_uses_the_name_structure():
    h = Hierarchy(use_default=False)
    assert h.chain("tf.estimator.DNNClassifier.train") == (
        ("class", "tf.estimator.DNNClassifier.train"),
        ("class", "tf.estimator.DNNClassifier.*"),
        ("module", "tf.estimator.*.train"),
        ("module", "tf.estimator"),
        ("global", "*"),
    )
    assert h.chain("tf.keras.layers.Dense") == (
        ("class", "tf.keras.layers.Dense()"),
        ("module", "tf.keras.layers"),
        ("global", "*"),
    )
    assert h.chain("tf.constant") == (("module", "tf"), ("global", "*"))
