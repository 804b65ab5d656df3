print("estimator-bench: not written yet")
