from tf2lib.image.image import *
