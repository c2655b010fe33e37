"""Reading COCO JSON files: with orjson when it is installed (the ``fast-json`` extra), else ``json``.

Both give the same Python objects on every document the tests compare (random documents, with and
without orjson, and the cases named here); that is evidence, not a proof for every file.  orjson
refuses some of what ``json`` reads beyond the JSON standard (NaN, Infinity, a byte-order mark, lone
surrogates); such a file is read again by ``json``.  Two cases where orjson reads a file differently
instead of refusing it are sent to ``json`` by a scan of the bytes first: an integer outside 64
bits, which orjson turns into a float (``json`` keeps it exact, so two huge ids could become one),
and a number with hundreds of digits, which orjson can round to the wrong float (it reads about 768
significant digits).  A document nested too deeply for ``json`` (it raises ``RecursionError``) may
still be read by orjson.
"""

from __future__ import annotations

import json
import os
from typing import Any

try:
    import orjson
except ImportError:  # the optional extra is not installed: json reads everything
    orjson = None

# Bytes -> a map of where numbers are: digits "0", a float's "." and exponent "e"/"E" ".", a sign
# "-" (or "+", in an exponent), what may come before a number ("[", ",", ":", white space) " ",
# what may end one besides those ("]", "}") "]", anything else "x".
_NUMBER_MAP = bytes(
    ord("0")
    if 48 <= i <= 57
    else ord(".")
    if chr(i) in ".eE"
    else ord("-")
    if chr(i) in "-+"
    else ord(" ")
    if chr(i) in "[,: \t\n\r"
    else ord("]")
    if chr(i) in "]}"
    else ord("x")
    for i in range(256)
)

# (what comes before the digits, how many digits at least, what may come after them)
_SUSPECT_RUNS = (
    # an integer beyond orjson's exact range, -2**63 to 2**64 - 1: 20 digits, or 19 after a minus
    (b" ", 20, b" ]"),
    (b"-", 19, b" ]"),
    # a number of hundreds of digits (orjson can round past about 768 significant digits to the
    # wrong float; such a number has a run of at least 384): a run of 100 in any part of it
    (b" ", 100, b" ]."),
    (b"-", 100, b" ]."),
    (b".", 100, b" ]."),
)


def _orjson_may_differ(data: bytes) -> bool:
    """Whether ``data`` may hold a number that orjson would not read as ``json`` does: a run of
    digits of one of the :data:`_SUSPECT_RUNS` kinds.

    A run of digits inside a string can look like one (RLE counts use digits, ":", "[", "]" and
    "e"); that costs a read by json, never a wrong number."""
    seen = b" " + data.translate(_NUMBER_MAP)  # a file that is one number: a delimiter before it
    for before, digits, after in _SUSPECT_RUNS:
        pattern = before + b"0" * digits
        at = seen.find(pattern)
        while at != -1:
            end = _past_digits(seen, at + len(pattern))
            if end == len(seen) or seen[end] in after:
                return True
            at = seen.find(pattern, end)
    return False


def _past_digits(seen: bytes, end: int) -> int:
    """The end of the run of "0" (digits) in ``seen`` that reaches ``end``, a stretch at a time."""
    while True:
        stretch = seen[end : end + 4096]
        rest = stretch.lstrip(b"0")
        end += len(stretch) - len(rest)
        if rest or not stretch:
            return end


def load_coco_json(path: str | os.PathLike) -> Any:
    """Read a COCO JSON file (annotations or results) into the dicts and lists ``evaluate_coco`` takes.

    The objects are those of ``json.loads`` on the file's bytes.  When orjson is installed
    (``pip install "mltutor[fast-json]"``) it parses the file instead, to the same objects on every
    document the tests compare, and in less time on large files (``make bench`` times both ways).
    A file orjson refuses (NaN, Infinity, a byte-order mark) or might read differently (an
    integer beyond 64 bits, which it would make a float; a number of hundreds of digits) is read
    by ``json``.

    Parameters
    ----------
    path : str or os.PathLike
        The file, e.g. ``instances_val2017.json`` or a results file.

    Returns
    -------
    dict or list
        What the file holds.

    Raises
    ------
    OSError
        The file cannot be read (``FileNotFoundError`` names it).
    json.JSONDecodeError
        It is not JSON; ``json``'s message gives the line and column.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "results.json"
    >>> _ = path.write_text('[{"image_id": 1, "category_id": 3, "bbox": [0, 0, 5, 5], "score": 0.9}]')
    >>> load_coco_json(path)
    [{'image_id': 1, 'category_id': 3, 'bbox': [0, 0, 5, 5], 'score': 0.9}]
    """
    with open(path, "rb") as f:
        data = f.read()
    if orjson is not None and not _orjson_may_differ(data):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass  # beyond orjson (NaN, a BOM, ...) or not JSON at all: json reads it or says where
    return json.loads(data)
