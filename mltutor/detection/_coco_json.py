"""Reading COCO JSON files: with orjson when it is installed (the ``fast-json`` extra), else ``json``.

Both give the same Python objects (the tests compare them on random documents).  orjson refuses
some of what ``json`` reads beyond the JSON standard (NaN, Infinity, a byte-order mark, lone
surrogates); such a file is read again by ``json``.  One case where orjson reads a file differently
instead of refusing it is an integer outside 64 bits, which it turns into a float (``json`` keeps
it exact), so two huge ids could become one; a scan of the bytes for a run of 20 digits (19 after
a minus sign) between delimiters sends those files to ``json`` too.  The tests find no other case.
"""

from __future__ import annotations

import json
import os
from typing import Any

try:
    import orjson
except ImportError:  # the optional extra is not installed: json reads everything
    orjson = None

# Bytes -> a map of where integers are: digits "0", a float's "." and exponent "e"/"E" ".", a minus
# sign "-", what may come before a number ("[", ",", ":", white space) " ", what may end one besides
# those ("]", "}") "]", anything else "x".
_NUMBER_MAP = bytes(
    ord("0")
    if 48 <= i <= 57
    else ord(".")
    if chr(i) in ".eE"
    else ord("-")
    if chr(i) == "-"
    else ord(" ")
    if chr(i) in "[,: \t\n\r"
    else ord("]")
    if chr(i) in "]}"
    else ord("x")
    for i in range(256)
)


def _may_hold_a_huge_integer(data: bytes) -> bool:
    """Whether ``data`` may hold an integer that orjson would not read exactly.

    orjson reads integers from -2**63 to 2**64 - 1 exactly (20 digits at most, 19 when negative).
    So the integers to leave to json have 20 digits or more, or 19 or more after a minus sign,
    between a delimiter before ("[", ",", ":", white space) and one after (those, "]", "}").  A run
    of digits in a string can look like that only between ":" or "[" and "]" (RLE counts use those
    characters); it costs a read by json, never a wrong number."""
    seen = data.translate(_NUMBER_MAP)
    if seen.startswith(b"0" * 20) and _ends_a_number(seen, 20):  # a file that is one number
        return True
    for pattern in (b" " + b"0" * 20, b"-" + b"0" * 19):  # after a delimiter, after a minus sign
        at = seen.find(pattern)
        while at != -1:
            end = _past_digits(seen, at + len(pattern))
            if _ends_a_number(seen, end):
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


def _ends_a_number(seen: bytes, end: int) -> bool:
    """Whether the digits before ``end`` end where a number may: at the end, or at a delimiter."""
    end = _past_digits(seen, end)
    return end == len(seen) or seen[end] in b" ]"


def load_coco_json(path: str | os.PathLike) -> Any:
    """Read a COCO JSON file (annotations or results) into the dicts and lists ``evaluate_coco`` takes.

    The objects are those of ``json.loads`` on the file's bytes.  When orjson is installed
    (``pip install "mltutor[fast-json]"``) it parses the file instead, with the same result and in
    less time on large files (``make bench`` times both ways).  A file orjson refuses (NaN,
    Infinity, a byte-order mark) or might read differently (an integer beyond 64 bits, which it
    would make a float) is read by ``json``.

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
    if orjson is not None and not _may_hold_a_huge_integer(data):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass  # beyond orjson (NaN, a BOM, ...) or not JSON at all: json reads it or says where
    return json.loads(data)
