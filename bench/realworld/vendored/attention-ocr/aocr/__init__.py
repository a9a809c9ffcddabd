__author__ = 'emedvedev'
