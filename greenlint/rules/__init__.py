"""Rules: one module per rule, each a `Rule` subclass with a stable `GLxxx` code.

Codes by theme: GL0xx the pipeline itself (files it cannot analyse, suppressions),
GL1xx energy magnitude, GL2xx inference, GL3xx training, GL4xx input pipelines.
"""
