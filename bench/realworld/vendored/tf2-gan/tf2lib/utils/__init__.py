from tf2lib.utils.utils import *
