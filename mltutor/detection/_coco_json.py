"""Reading COCO JSON files: with orjson when it is installed (the ``fast-json`` extra), else ``json``.

Both give the same Python objects.  orjson refuses what ``json`` reads beyond the JSON standard (NaN,
Infinity, a byte-order mark, lone surrogates); such a file is read again by ``json``.  The one case
where orjson reads a file differently instead of refusing it is an integer outside 64 bits, which
it turns into a float (``json`` keeps it exact): two huge ids could then become one.  A cheap scan of
the bytes for a long run of digits sends those files to ``json`` too.
"""

from __future__ import annotations

import json
import os
from typing import Any

try:
    import orjson
except ImportError:  # the optional extra is not installed: json reads everything
    orjson = None

# Bytes -> a map of where numbers are: digits "0", a float's "." or exponent "e"/"E" ".", a minus
# sign "-", anything else " ".  orjson reads an integer exactly from 0 to 2**64 - 1 (up to 20
# digits, all with 19) and from -2**63 (19 digits); so 20 digits not after a "." (the fraction of a
# float), or 19 after a minus sign, may be an integer it does not.  Such runs inside strings (RLE
# counts) or a float's exponent only cost a read by json.
_NUMBER_MAP = bytes(
    ord("0")
    if chr(i).isdigit()
    else ord(".")
    if chr(i) in ".eE"
    else ord("-")
    if i == ord("-")
    else ord(" ")
    for i in range(256)
)
_LONG_POSITIVE = b" " + b"0" * 20
_LONG_NEGATIVE = b"-" + b"0" * 19


def _may_hold_a_huge_integer(data: bytes) -> bool:
    """Whether ``data`` holds a run of digits that may be an integer beyond orjson's 64 bits."""
    seen = data.translate(_NUMBER_MAP)
    return seen.startswith(_LONG_POSITIVE[1:]) or _LONG_POSITIVE in seen or _LONG_NEGATIVE in seen


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
