"""Shape and length checks shared by every input family."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

__all__ = [
    "as_numpy",
    "check_lengths",
    "column_or_1d",
    "describe",
    "float_eps",
    "not_array_like",
    "shown",
]


def not_array_like(x: Any) -> bool:
    """True for None, a string, bytes or a scalar: nothing that holds one value per sample."""
    return x is None or isinstance(x, (str, bytes)) or np.ndim(x) == 0


def _torch_tensor(x: Any) -> bool:
    """Whether ``x`` is a torch tensor (a subclass too), without importing torch."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(x, torch.Tensor)


def as_numpy(x: Any, name: str) -> np.ndarray:
    """``np.asarray(x)``, except that a torch tensor is first detached and moved to the CPU, and
    a bfloat16 one widened to float32 (exactly: bfloat16 is float32 with a shorter mantissa),
    since NumPy has no bfloat16 and ``np.asarray`` would fail without naming the argument.

    torch is never imported here: a tensor is recognised only once torch has been imported.
    """
    if _torch_tensor(x):
        try:
            x = x.detach().cpu().resolve_conj().resolve_neg()  # a lazy negation: numpy() refuses it
            if str(x.dtype) == "torch.bfloat16":
                x = x.float()
            return x.numpy()
        except (RuntimeError, TypeError) as exc:
            raise TypeError(f"{name} is a torch tensor NumPy cannot read ({exc}).") from None
    return np.asarray(x)


def float_eps(x: Any, arr: np.ndarray) -> float:
    """The machine epsilon of the float dtype ``x`` came in, ``arr`` being ``as_numpy(x)``: a
    torch bfloat16 tensor's 2**-7, not that of the float32 it was widened to.  0.0 for integers."""
    if _torch_tensor(x) and x.dtype.is_floating_point:
        return float(sys.modules["torch"].finfo(x.dtype).eps)
    return float(np.finfo(arr.dtype).eps) if arr.dtype.kind == "f" else 0.0


def describe(x: Any) -> str:
    """What ``x`` is, for an error message: "a 0-d array (a scalar)" rather than "ndarray"."""
    if isinstance(x, np.ndarray) and x.ndim == 0:
        return f"a 0-d array (a scalar, {x.item()!r:.40}); pass one value per sample"
    if isinstance(x, np.generic):
        return f"a NumPy scalar {x!r:.40}"
    if x is None or isinstance(x, (str, bytes)):
        return repr(x)[:60]
    return type(x).__name__


def shown(x: Any) -> str:
    """``repr(x)`` for an error message, except that a 0-d array says what it is."""
    if isinstance(x, np.ndarray) and x.ndim == 0:
        return describe(x)
    return f"{x!r:.80}"


def column_or_1d(arr: np.ndarray, name: str) -> np.ndarray:
    """Accept shape (n,) or a column (n, 1); refuse anything else, naming the argument."""
    if arr.ndim == 2 and arr.shape[1] == 1:
        return arr.reshape(-1)
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D (one value per sample); got an array of shape {arr.shape}."
        )
    return arr


def check_lengths(hint: str = "", **arrays: Any) -> None:
    """One entry per sample in every array (``None`` skipped); ``hint`` ends the message."""
    lengths = {
        k: int(np.shape(v)[0]) if np.ndim(v) else 1 for k, v in arrays.items() if v is not None
    }
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{k} has {n}" for k, n in lengths.items())
        raise ValueError(
            f"Found input variables with inconsistent numbers of samples: {detail}.{hint}"
        )
