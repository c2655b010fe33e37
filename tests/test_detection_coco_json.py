"""load_coco_json gives what ``json.loads`` gives on the file's bytes, with orjson and without it.

orjson is the optional ``fast-json`` extra.  Where it refuses a file (NaN, Infinity, a byte-order
mark, lone surrogates) or would read an integer beyond 64 bits as a float, json reads the file.
"""

from __future__ import annotations

import json
import math

import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st

from mltutor.detection import _coco_json, load_coco_json

# JSON values as json.dumps writes them: any int, any float (NaN and infinities as json's NaN,
# Infinity), any text (lone surrogates, escapes), nested lists and dicts.
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(2**64), 2**65)
    | st.floats()
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


def _same(a, b) -> bool:
    """Equal values of equal types all the way down (1 is not 1.0; NaN equals NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


@pytest.fixture(params=["orjson", "json"])
def parser(request, monkeypatch):
    """Both readers: orjson where installed, and json alone (orjson taken away)."""
    if request.param == "orjson":
        pytest.importorskip("orjson")
    else:
        monkeypatch.setattr(_coco_json, "orjson", None)
    return request.param


@pytest.mark.parametrize("reader", ["orjson", "json"])
@PROPERTY
@given(value=VALUES, indent=st.sampled_from([None, 1]), ascii_only=st.booleans())
def test_load_coco_json_equals_json_loads(tmp_path_factory, reader, value, indent, ascii_only):
    if reader == "orjson":
        pytest.importorskip("orjson")
        CASES["load_coco_json vs json.loads (orjson)"] += 1
    else:
        CASES["load_coco_json vs json.loads (json)"] += 1
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)  # escapes, or raw UTF-8
    path = tmp_path_factory.mktemp("j") / "file.json"
    path.write_text(text, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        if reader == "json":
            mp.setattr(_coco_json, "orjson", None)
        assert _same(load_coco_json(path), json.loads(text.encode()))


@pytest.mark.parametrize(
    "data",
    [
        b"[18446744073709551616, 1]",  # 2**64: orjson would give a float
        b'{"id": -9223372036854775809}',  # -2**63 - 1
        b"[123456789012345678901234567890]",
        b"NaN",
        b"[Infinity, -Infinity]",
        b"[1e400]",
        b"\xef\xbb\xbf[1, 2]",  # a UTF-8 byte-order mark
        b'["\\ud800"]',  # a lone surrogate
        b'{"a": 1, "a": 2}',  # json keeps the last
        b'{"counts": "a01234567890123456789012", "bbox": [0.00194326518657916840000]}',
        # 780 digits: orjson 3.13 rounds this one to the float below json's correctly rounded one
        b'{"score": 84861374336693863807' + b"0" * 760 + b".0e-566}",
    ],
)
def test_what_orjson_refuses_or_reads_otherwise_comes_from_json(tmp_path, parser, data):
    path = tmp_path / "f.json"
    path.write_bytes(data)
    assert _same(load_coco_json(path), json.loads(data))


def test_numbers_of_hundreds_of_digits_are_left_to_json():
    # orjson reads about 768 significant digits: a run of 100 in any part of a number sends the
    # file to json; the same run inside a string does not
    for text in (
        b"[" + b"7" * 100 + b"]",
        b'{"s": 0.' + b"1" * 100 + b"}",
        b"[-" + b"3" * 100 + b".5]",
        b"[1e+" + b"0" * 100 + b"1]",
        b"7" * 100,
    ):
        assert _coco_json._orjson_may_differ(text), text[:20]
    for text in (
        b"[0." + b"1" * 99 + b", " + b"2" * 19 + b"]",
        b'{"s": "' + b"5" * 100 + b'"}',
        b'{"counts": "L' + b"0" * 300 + b'O"}',
    ):
        assert not _coco_json._orjson_may_differ(text), text[:20]


def test_the_scan_finds_every_integer_orjson_would_not_keep():
    # The scan's premise: orjson keeps integers of [-2**63, 2**64 - 1] exact and makes floats of the
    # others; each of those others is flagged, and so is any run of 20 digits outside a fraction.
    orjson = pytest.importorskip("orjson")
    for x in (0, 2**63 - 1, 2**64 - 1, -(2**63)):
        assert type(orjson.loads(str(x))) is int and orjson.loads(str(x)) == x
    for x in (2**64, 10**19 * 2, -(2**63) - 1, -(10**30), 10**40):
        assert type(orjson.loads(str(x))) is float
        for text in (f"[{x}]", f'{{"id":{x}}}', f"{x}", f"[1, {x}]", f"[\n {x}\n]"):
            assert _coco_json._orjson_may_differ(text.encode()), text
    # digits after a point are a fraction, 19 digits fit, digits inside a string (RLE counts) are
    # followed by more of the string: no reason to leave orjson
    for text in (
        b"[0.00194326518657916840000, 1234567890123456789]",
        b'{"counts": ":000000000000000000000001O0000000000000000000000L"}',
    ):
        assert not _coco_json._orjson_may_differ(text)


def test_a_missing_file_and_bad_json_are_named(tmp_path, parser):
    with pytest.raises(FileNotFoundError, match="nowhere.json"):
        load_coco_json(tmp_path / "nowhere.json")
    path = tmp_path / "bad.json"
    path.write_text('{"images": [1, 2,]}')
    with pytest.raises(json.JSONDecodeError, match="line 1 column 18"):
        load_coco_json(path)
