from .model import WaveNetModel
from .audio_reader import AudioReader
from .ops import (mu_law_encode, mu_law_decode, time_to_batch,
                  batch_to_time, causal_conv, optimizer_factory)
