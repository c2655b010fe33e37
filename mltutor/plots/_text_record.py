"""Write into every PNG a figure is saved as how large its smallest text is.

A figure in the book is shown at most as wide as the text column, so a wide PNG is shrunk and its
text with it.  Whether the smallest text is still readable depends on four numbers known only when
the PNG is written: its width in pixels (after ``bbox_inches="tight"`` cropping), its dpi, the size
of every piece of text actually drawn, and the width of the column.  This module records the first
three in the PNG's text metadata (key :data:`KEY`, a JSON object), and :func:`shown_text_px` turns a
record into the height of the smallest text in CSS pixels at the width the book shows the image.

How it records: :func:`watch` is a matplotlib figure hook (rcParams ``figure.hooks``, matplotlib
>= 3.7).  It wraps the figure canvas's ``print_figure``; for a PNG, the wrapper counts every string
that reaches the Agg renderer's ``draw_text`` / ``draw_tex`` (so only text that is really drawn:
ticks outside the view and empty labels never get there, and the preliminary layout pass of a
tight bounding box draws nothing), and on the figure's ``draw_event`` -- after the final draw,
before the image is encoded -- writes the summary into the ``metadata`` that matplotlib then
stores in the PNG.  The hook is switched on only where ``MATPLOTLIBRC`` names :data:`RC_FILE`,
which ``scripts/notebook_tools.py`` does for the kernels that execute the notebooks.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: PNG text key of the record.
KEY = "mltutor:text"
#: The matplotlibrc that switches the hook on (give its path in ``MATPLOTLIBRC``).
RC_FILE = Path(__file__).with_name("text_record.matplotlibrc")
#: Width of the book's text column in CSS px — sphinx-book-theme in a 1280 px wide window
#: (measured in Chromium; 790 px from 1440 px up, 624 px at 1200 px, full width on phones).
COLUMN_PX = 688
#: Smallest text height, in CSS px at the shown width, that the book accepts.
MIN_TEXT_PX = 8.0


def _is_png(filename: Any, kwargs: dict) -> bool:
    import matplotlib as mpl

    fmt = kwargs.get("format")
    if fmt is None and isinstance(filename, (str, os.PathLike)):
        fmt = Path(filename).suffix[1:] or None
    return str(fmt or mpl.rcParams["savefig.format"]).lower() == "png"


@contextlib.contextmanager
def _counting_text(seen: list) -> Iterator[None]:
    """Append ``(renderer, size in pt, string)`` to ``seen`` for every text the Agg renderer draws."""
    from matplotlib.backends.backend_agg import RendererAgg

    originals = {name: getattr(RendererAgg, name) for name in ("draw_text", "draw_tex")}

    def counting(name: str):
        original = originals[name]

        def draw(self, gc, x, y, s, prop, angle, *args, **kwargs):
            if str(s).strip():
                seen.append((self, float(prop.get_size_in_points()), str(s)))
            return original(self, gc, x, y, s, prop, angle, *args, **kwargs)

        return draw

    try:
        for name in originals:
            setattr(RendererAgg, name, counting(name))
        yield
    finally:
        for name, original in originals.items():
            setattr(RendererAgg, name, original)


def _summary(renderer: Any, seen: list) -> dict:
    drawn = [(size, s) for r, size, s in seen if r is renderer]
    smallest = min(drawn, default=(None, ""), key=lambda item: item[0])
    return {
        "width_px": int(renderer.width),
        "height_px": int(renderer.height),
        "dpi": float(renderer.dpi),
        "texts": len(drawn),
        "smallest_pt": smallest[0],
        "smallest": smallest[1][:60],
    }


def watch(fig: Any) -> None:
    """Figure hook: make every PNG saved from ``fig`` carry its text record (see the module notes)."""
    canvas = fig.canvas
    original = canvas.print_figure
    if getattr(original, "records_text", False):
        return

    def print_figure(filename: Any, *args: Any, **kwargs: Any) -> Any:
        if args or not _is_png(filename, kwargs) or "pnginfo" in (kwargs.get("pil_kwargs") or {}):
            return original(filename, *args, **kwargs)
        metadata = kwargs["metadata"] = dict(kwargs.get("metadata") or {})
        seen: list = []

        def on_draw(event: Any) -> None:
            # The last draw before encoding is the one in the file; earlier ones are overwritten.
            metadata[KEY] = json.dumps(_summary(event.renderer, seen), sort_keys=True)
            seen.clear()

        cid = fig.canvas.mpl_connect("draw_event", on_draw)
        try:
            with _counting_text(seen):
                return original(filename, **kwargs)
        finally:
            fig.canvas.mpl_disconnect(cid)

    print_figure.records_text = True  # type: ignore[attr-defined]
    canvas.print_figure = print_figure


def read_record(png: bytes) -> dict | None:
    """The text record stored in a PNG, or None when it has none."""
    import io

    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        text = image.text.get(KEY)  # type: ignore[attr-defined]
        size = image.size
    if text is None:
        return None
    record = json.loads(text)
    record["png_size"] = list(size)
    return record


def shown_text_px(
    record: dict, *, column_px: float = COLUMN_PX, shown_width_px: float | None = None
) -> float | None:
    """Height in CSS px of the record's smallest text when the image is shown in the column.

    ``shown_width_px`` is the image's own display width when the notebook gives one (a retina PNG
    is shown at half its pixel width); otherwise one image pixel is one CSS pixel.  The image is
    shrunk to ``column_px`` when wider: the factor is ``min(1, column_px / shown_width_px)``.
    Returns None for a figure without text.
    """
    if record["smallest_pt"] is None:
        return None
    natural = float(shown_width_px or record["width_px"])
    css_per_image_px = natural / record["width_px"] * min(1.0, column_px / natural)
    return record["smallest_pt"] * record["dpi"] / 72.0 * css_per_image_px
