"""mltutor.plots._text_record: every PNG a watched figure is saved as records its smallest text."""

import io
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from mltutor.plots import _text_record as tr  # noqa: E402

HOOK = {"figure.hooks": ["mltutor.plots._text_record:watch"]}


def png_of(fig, **kwargs) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", **kwargs)
    plt.close(fig)
    return buffer.getvalue()


def watched_figure(figsize, fontsize=10.0, dpi=100):
    with matplotlib.rc_context(HOOK):
        fig, ax = plt.subplots(figsize=figsize, dpi=dpi)
    ax.plot([0, 1], [0, 1])
    ax.tick_params(labelsize=fontsize)
    ax.set_xlabel("recall", fontsize=fontsize)
    ax.set_title("a title", fontsize=14)
    return fig


def test_tiny_text_fails_and_normal_text_passes():
    """The deliberately tiny figure is caught; the same figure with 10 pt text at 5 inches is fine."""
    tiny = tr.read_record(png_of(watched_figure((14, 3), fontsize=5), bbox_inches="tight"))
    assert tiny["smallest_pt"] == 5.0
    assert tr.shown_text_px(tiny) < tr.MIN_TEXT_PX
    fine = tr.read_record(png_of(watched_figure((5, 3), fontsize=10), bbox_inches="tight"))
    assert fine["smallest_pt"] == 10.0
    assert tr.shown_text_px(fine) == pytest.approx(10 * 100 / 72)  # narrower than the column: 1:1
    assert tr.shown_text_px(fine) >= tr.MIN_TEXT_PX


def test_record_has_the_png_width_after_tight_cropping():
    png = png_of(watched_figure((12, 3)), bbox_inches="tight")
    record = tr.read_record(png)
    width, height = Image.open(io.BytesIO(png)).size
    assert (record["width_px"], record["height_px"]) == (width, height)
    assert width < 1200  # the tight box cropped the margins
    # 10 pt at 100 dpi is 13.9 image px; the image is shrunk by COLUMN_PX / width.
    assert tr.shown_text_px(record) == pytest.approx(10 * 100 / 72 * tr.COLUMN_PX / width)


def test_dpi_is_accounted_for():
    """Twice the dpi doubles the width and the text: same size once shrunk into the column."""
    low = tr.read_record(png_of(watched_figure((12, 3)), dpi=100))
    high = tr.read_record(png_of(watched_figure((12, 3)), dpi=200))
    assert high["width_px"] == 2 * low["width_px"] and high["dpi"] == 200
    assert tr.shown_text_px(high) == pytest.approx(tr.shown_text_px(low))


def test_only_drawn_text_counts():
    """Invisible and empty text, and ticks outside the view, are never drawn, so never counted."""
    with matplotlib.rc_context(HOOK):
        fig, ax = plt.subplots(figsize=(4, 3))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.tick_params(labelsize=11)
    ax.text(0.5, 0.5, "hidden", fontsize=2, visible=False)
    ax.text(0.5, 0.5, "   ", fontsize=3)
    ax.text(0.5, 0.5, "shown", fontsize=12)
    record = tr.read_record(png_of(fig))
    assert record["smallest_pt"] == 11.0
    assert record["texts"] == 12 + 1  # six tick labels per axis, and "shown"


def test_mathtext_counts():
    with matplotlib.rc_context(HOOK):
        fig, ax = plt.subplots(figsize=(4, 3))
    ax.tick_params(labelsize=12)
    ax.set_xlabel(r"$\beta^2$", fontsize=6)
    record = tr.read_record(png_of(fig))
    assert (record["smallest_pt"], record["smallest"]) == (6.0, r"$\beta^2$")


def test_unwatched_figures_and_other_formats_have_no_record():
    fig, _ = plt.subplots()
    assert tr.read_record(png_of(fig)) is None
    watched = watched_figure((4, 3))
    buffer = io.BytesIO()
    watched.savefig(buffer, format="svg")
    assert b"mltutor:text" not in buffer.getvalue()
    assert tr.read_record(png_of(watched)) is not None  # the hook survives a save in another format


def test_user_metadata_is_kept():
    record_png = png_of(watched_figure((4, 3)), metadata={"Title": "mine"})
    image = Image.open(io.BytesIO(record_png))
    assert image.text["Title"] == "mine" and tr.KEY in image.text


def test_inline_backend_path_records():
    """IPython's inline backend renders through ``print_figure``: the record must be there too."""
    from IPython.core.pylabtools import print_figure

    fig = watched_figure((14, 3), fontsize=5)
    record = tr.read_record(print_figure(fig, "png", bbox_inches="tight"))
    plt.close(fig)
    assert record is not None and record["smallest_pt"] == 5.0


def test_retina_display_width():
    record = {"width_px": 2000, "dpi": 200.0, "smallest_pt": 10.0}
    # Shown at its 1000 px display width, then shrunk to the column.
    assert tr.shown_text_px(record, shown_width_px=1000) == pytest.approx(
        10 * 200 / 72 * 0.5 * tr.COLUMN_PX / 1000
    )
    assert tr.shown_text_px({"width_px": 10, "dpi": 100.0, "smallest_pt": None}) is None


def test_matplotlibrc_switches_the_hook_on():
    """The rc file that scripts/notebook_tools.py hands the kernels activates the hook."""
    code = (
        "import io, matplotlib.pyplot as plt\n"
        "from mltutor.plots._text_record import read_record\n"
        "fig, ax = plt.subplots(); ax.set_title('t'); buffer = io.BytesIO()\n"
        "fig.savefig(buffer, format='png'); print(read_record(buffer.getvalue())['smallest'])\n"
    )
    env = {**os.environ, "MATPLOTLIBRC": os.fspath(tr.RC_FILE), "MPLBACKEND": "Agg"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert result.stdout.strip() in {"t", "0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}


def test_notebook_kernels_get_the_rc_file():
    import importlib.util

    path = tr.RC_FILE.parents[2] / "scripts" / "notebook_tools.py"
    spec = importlib.util.spec_from_file_location("notebook_tools_under_test", path)
    notebook_tools = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(notebook_tools)

    assert notebook_tools.KERNEL_ENV["MATPLOTLIBRC"] == os.fspath(tr.RC_FILE)
    assert tr.RC_FILE.is_file()
