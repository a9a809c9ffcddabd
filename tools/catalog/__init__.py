"""The catalog generator: TensorFlow's and Keras' public API -> data/catalog (needs TensorFlow)."""
