from ._misc import RegressBoxes, UpsampleLike, Anchors, ClipBoxes  # noqa: F401
from .filter_detections import FilterDetections  # noqa: F401
