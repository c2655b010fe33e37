"""``python -m mltutor.grading CHAPTER SUBMISSION...``: the batch grader (:mod:`mltutor.grading.batch`)."""

import sys

from .batch import main

if __name__ == "__main__":
    sys.exit(main())
