"""The small TF/Keras documents the e2e tests open (kept as text: the tests write them into a workspace)."""

TRAIN = '''\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="mse")
for trial in range(4):
    model.fit(x_train, y_train, epochs=20)
model.fit(x_train, y_train, batch_size=2, epochs=1)
label = "énergie 😀"; zeros = tf.zeros((2, 2))
'''
