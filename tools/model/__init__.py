"""Train and evaluate greenlint's predictor (`make data`; never installed).

`train` writes data/model/predictor.json (the tables of tools/model/table_fit.py, the work
model of `work_fit`, the interval factors of `intervals`); `evaluate` writes docs/accuracy.md
(`cross_validation`, `physics`, `training_eval` on the GAISSA runs of `training_data`, rendered by
`accuracy`).
"""
