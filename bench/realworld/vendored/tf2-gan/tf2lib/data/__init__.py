from tf2lib.data.dataset import *
