"""Grading routes for instructors: :mod:`mltutor.grading.nbgrader` exports the chapters' exercises
as nbgrader assignments; :mod:`mltutor.grading.batch` is the batch grader for plain submissions."""
