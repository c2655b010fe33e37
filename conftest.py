"""Pytest configuration shared by the unit tests and the nbval notebook runs."""

import os

# Exercise checks raise on a wrong answer under pytest, so nbval and the unit tests see failures.
# Kernels started by nbval inherit this environment.
os.environ["MLTUTOR_STRICT"] = "1"
# Headless plotting everywhere, in this process and in notebook kernels.
os.environ.setdefault("MPLBACKEND", "Agg")
