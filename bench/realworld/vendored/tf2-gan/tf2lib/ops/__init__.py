from tf2lib.ops.ops import *
