"""mltutor.plots.static_threshold_explorer: the precomputed explorer of the static web page.

Its states equal the live ipywidgets explorer's readout at the same thresholds, its HTML is
deterministic and accessible (a labelled range input, alt text), and, in headless Chromium when
one is installed, moving its slider changes the readout and the figure's pixels (the same code
``scripts/check_site.py`` runs on chapter 3 of the built book).
"""

import os

os.environ.setdefault("MPLBACKEND", "Agg")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import importlib.util  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
from html.parser import HTMLParser  # noqa: E402
from pathlib import Path  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mltutor.curves import threshold_sweep  # noqa: E402
from mltutor.plots import static_threshold_explorer  # noqa: E402
from mltutor.plots.widgets import (  # noqa: E402
    StaticThresholdExplorer,
    _slider_positions,
    readout_text,
)

ROOT = Path(__file__).resolve().parents[1]
RNG = np.random.default_rng(3)
Y = RNG.integers(0, 2, 400)
P = 1 / (1 + np.exp(-RNG.normal(2.0 * Y - 1.0, 1.3)))  # probabilities, classes overlap


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def explorer() -> StaticThresholdExplorer:
    return static_threshold_explorer(Y, P, beta=2.0, c_fp=1, c_fn=5, threshold=0.37)


class _Parts(HTMLParser):
    """Tags (with attributes) and the text of each <script> and <pre> of the HTML block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: dict[str, list[str]] = {"script": [], "pre": []}
        self._open: str | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in self.text:
            self._open = tag
            self.text[tag].append("")

    def handle_endtag(self, tag):
        if tag == self._open:
            self._open = None

    def handle_data(self, data):
        if self._open:
            self.text[self._open][-1] += data


def _parts(html: str) -> _Parts:
    parser = _Parts()
    parser.feed(html)
    parser.close()
    return parser


def _state(html: str) -> dict:
    (payload,) = [t for t in _parts(html).text["script"] if t.lstrip().startswith("{")]
    return json.loads(payload)


def test_states_equal_the_live_explorers_readout(explorer):
    widgets = pytest.importorskip("ipywidgets")
    from mltutor.plots import threshold_explorer

    box = threshold_explorer(Y, P, beta=2.0, c_fp=1, c_fn=5, threshold=0.37)
    slider, readout, _ = box.children
    assert isinstance(slider, widgets.FloatSlider)
    assert explorer.thresholds[explorer.start] == slider.value == 0.37

    def live_text() -> str:
        value = readout.value
        return value[len("<pre>") : -len("</pre>")].replace("&gt;", ">").replace("&lt;", "<")

    assert explorer.readouts[explorer.start] == live_text()
    last = explorer.thresholds.size - 1
    # Each slider move redraws the live figure (slow): the ends, the start and a few between.
    for k in sorted({0, 1, explorer.start, last // 3, last // 2, last - 1, last}):
        slider.value = float(explorer.thresholds[k])
        assert explorer.readouts[k] == live_text(), explorer.thresholds[k]


def test_every_state_is_the_sweeps_operating_point(explorer):
    sweep = threshold_sweep(Y, P, beta=2.0)
    assert len(explorer.points) == len(explorer.readouts) == explorer.thresholds.size
    for t, point, text in zip(explorer.thresholds, explorer.points, explorer.readouts):
        ref = sweep.at(float(t))
        assert (point.tp, point.fp, point.fn, point.tn) == (ref.tp, ref.fp, ref.fn, ref.tn)
        assert point.threshold == t
        assert text == readout_text(ref, c_fp=1, c_fn=5)
        assert f"TP = {ref.tp}" in text and f"cost = 1*FP + 5*FN = {ref.fp + 5 * ref.fn:g}" in text
    state = _state(explorer.html)
    assert state["text"] == list(explorer.readouts)
    assert state["t"] == [f"{t:.4g}" for t in explorer.thresholds]


def test_positions_are_a_round_grid_inside_the_scores_plus_the_start(explorer):
    t = explorer.thresholds
    assert np.all(np.diff(t) > 0)
    assert P.min() <= t[0] and t[-1] <= P.max()
    assert np.allclose(np.round(t * 100), t * 100)  # steps of 0.01; 0.37 is one of them
    assert t.size <= 101
    # The grid alone (no figure drawn): lo, hi, start, most positions.
    coarse = _slider_positions(0.013, 0.97, 0.5, 11)
    assert np.allclose(coarse, np.arange(1, 10) / 10)
    off_grid = _slider_positions(0.013, 0.97, 0.123, 11)
    assert 0.123 in off_grid and off_grid.size == 10 and np.all(np.diff(off_grid) > 0)
    assert np.allclose(_slider_positions(-7.3, 8.1, 0.0, 101), np.arange(-36, 41) * 0.2)
    assert str(_slider_positions(-0.2, 0.8, 0.3, 2)[0]) == "0.0"  # not -0.0
    assert np.allclose(_slider_positions(0.0, 1.0, 0.5, 5), [0, 0.25, 0.5, 0.75, 1])
    assert np.allclose(_slider_positions(-0.2, 0.8, 0.3, 2), [0.0, 0.3])  # step 1: only 0
    # Range and start as the live slider: the median for scores that are not probabilities.
    scores = RNG.normal(size=Y.size) * 3
    wide = static_threshold_explorer(Y, scores)
    assert wide.thresholds[wide.start] == pytest.approx(np.median(scores))
    assert scores.min() <= wide.thresholds[0] < wide.thresholds[-1] <= scores.max()


def test_html_is_deterministic_accessible_and_consistent(explorer):
    again = static_threshold_explorer(Y, P, beta=2.0, c_fp=1, c_fn=5, threshold=0.37)
    assert again.html == explorer.html
    assert repr(explorer) == (
        f"StaticThresholdExplorer({explorer.thresholds.size} thresholds "
        f"from 0.02 to 0.99, starting at 0.37)"
    )
    parts = _parts(explorer.html)
    tags = dict((tag, attrs) for tag, attrs in reversed(parts.tags))  # first of each tag
    root_id = tags["div"]["id"]
    assert re.fullmatch(r"mltutor-te-[0-9a-f]{12}", root_id)
    assert explorer.html.count(f'id="{root_id}"') == 1
    slider = tags["input"]
    assert slider["type"] == "range" and slider["id"] == f"{root_id}-slider"
    assert tags["label"]["for"] == slider["id"]
    assert int(slider["max"]) == explorer.thresholds.size - 1
    assert int(slider["value"]) == explorer.start
    images = [attrs for tag, attrs in parts.tags if tag == "img"]  # one per panel
    assert len(images) == 2 and all(i["src"].startswith("data:image/png;base64,") for i in images)
    assert all(len(i["alt"].split()) > 10 for i in images)
    assert "negatives" in images[0]["alt"] and "recall" in images[1]["alt"]
    assert sum(tag == "svg" for tag, _ in parts.tags) == 2
    assert tags["svg"]["aria-hidden"] == "true"
    assert parts.text["pre"] == [explorer.readouts[explorer.start]]
    assert len(explorer.html) < 400_000  # one PNG and the text of ~100 states


def test_overlay_follows_the_threshold(explorer):
    state = _state(explorer.html)
    assert np.all(np.diff(state["xh"]) > 0) and np.all(np.diff(state["xc"]) > 0)
    assert all(x <= state["xe"] for x in state["xh"])
    assert set(state["y"]) == {"precision", "recall", "fbeta"}
    recall = np.array([p.recall for p in explorer.points])
    y = np.array(state["y"]["recall"])  # SVG y grows downwards
    assert np.all(np.diff(y)[np.diff(recall) < 0] > 0)


def test_errors():
    with pytest.raises(ValueError, match="both"):
        static_threshold_explorer(Y, P, c_fp=1)
    with pytest.raises(ValueError, match="n_positions"):
        static_threshold_explorer(Y, P, n_positions=1)
    with pytest.raises(TypeError, match="n_positions"):
        static_threshold_explorer(Y, P, n_positions=10.0)


# The browser check of scripts/check_site.py, on a standalone page holding the block.
_spec = importlib.util.spec_from_file_location("check_site", ROOT / "scripts" / "check_site.py")
check_site = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("check_site", check_site)
_spec.loader.exec_module(check_site)


def test_explorer_problems_pure_parts():
    before = {
        "value": "10",
        "last": "90",
        "shown": "0.1",
        "readout": "predict positive when score >= 0.1\n...",
        "overlay": "<line x1=1>",
    }
    after = {
        "value": "90",
        "last": "90",
        "shown": "0.9",
        "readout": "predict positive when score >= 0.9\n...",
        "overlay": "<line x1=9>",
    }
    assert check_site.explorer_problems(before, after, True, 90) == []
    assert check_site.explorer_target(10, 90) == 90 and check_site.explorer_target(60, 90) == 0
    stuck = check_site.explorer_problems(before, dict(before), False, 90)
    assert len(stuck) == 5 and any("pixels" in p for p in stuck)
    mismatch = dict(after, readout="predict positive when score >= 0.5\n...")
    assert check_site.explorer_problems(before, mismatch, True, 90) == [
        "the readout says 'predict positive when score >= 0.5', the slider '0.9'"
    ]


@pytest.mark.skipif(
    not Path(check_site.CHROMIUM).is_file() or importlib.util.find_spec("playwright") is None,
    reason="needs Playwright and /usr/bin/chromium (as make check-site)",
)
def test_slider_moves_the_figure_in_chromium(explorer, tmp_path):
    from playwright.sync_api import sync_playwright

    page = tmp_path / "explorer.html"
    page.write_text(
        f"<!doctype html><html lang=en><body>{explorer.html}</body></html>", encoding="utf-8"
    )
    broken = tmp_path / "broken.html"  # what the saved widget state did: the figure stays
    broken.write_text(
        page.read_text().replace('addEventListener("input", show)', "toString()"), encoding="utf-8"
    )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=check_site.CHROMIUM, headless=True, args=check_site.CHROMIUM_ARGS
        )
        try:
            tab = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.goto(page.as_uri())
            assert check_site.check_explorers(tab, required=True) == []
            index = int(tab.locator("input[type=range]").input_value())
            assert tab.locator("pre").inner_text() == explorer.readouts[index]
            assert errors == []
            tab.goto(broken.as_uri())
            problems = check_site.check_explorers(tab, required=True)
            assert any("pixels did not change" in p for p in problems)
            assert any("readout" in p for p in problems)
            tab.set_content("<p>no explorer</p>")
            assert check_site.check_explorers(tab, required=False) == []
            assert check_site.check_explorers(tab, required=True) != []
        finally:
            browser.close()
