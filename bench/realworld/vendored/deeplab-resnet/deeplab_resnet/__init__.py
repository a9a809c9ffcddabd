from .model import DeepLabResNetModel
from .image_reader import ImageReader
from .utils import decode_labels, inv_preprocess, prepare_label
