"""The calls that list a folder's files, as written: GL209 flags them in a function called per
batch, GL408 follows a listing's files into a pipeline that decodes them."""

#: Calls that list a folder, as written (`glob.glob(...)`, `os.listdir(...)`, `tf.io.gfile.glob(...)`).
LISTINGS = frozenset({
    "glob.glob", "glob.iglob", "os.listdir", "os.scandir", "os.walk",
    "tf.io.gfile.glob", "tf.io.gfile.listdir", "tf.io.gfile.walk", "tf.gfile.Glob", "tf.gfile.ListDirectory",
    "gfile.glob", "gfile.listdir", "gfile.Glob", "gfile.ListDirectory",
})  # fmt: skip
#: The names the listing calls above end in.
LISTED_BY = frozenset(name.rpartition(".")[2] for name in LISTINGS)
