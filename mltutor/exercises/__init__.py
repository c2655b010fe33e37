"""Exercise definitions, one module per chapter.

A notebook imports the checks it needs, e.g.::

    from mltutor.exercises.confusion_matrix import ex1, ex2, ex3, ex4, ex5

Each ``exN`` is an :class:`mltutor.check.Exercise` (the learner passes a function) or a
:class:`mltutor.check.ValueExercise` (the learner passes a value).  The reference solutions are
plain NumPy, on purpose independent of :mod:`mltutor.metrics`, so an exercise can never pass just
because the package under test has the same bug.
"""

#: Modules holding exercises, in course order.
CHAPTERS = (
    "confusion_matrix",
    "accuracy_trap",
    "precision_recall",
    "f1_fbeta",
    "averaging",
    "roc_pr",
    "prediction_sets",
    "map_detection",
    "masks_keypoints_errors",
    "ucf101_case_study",
    "video_detection",
    "monitoring",
)
