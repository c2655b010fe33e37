"""Text sizes shared by the plot functions.

The book shrinks a figure wider than its text column (688 CSS px in a 1280 px wide window) to fit,
and text must stay at least 8 px high once shrunk (``tests/test_figure_text_size.py``).  At the
default 100 dpi a size of ``s`` points survives a PNG up to ``s * 100 / 72 * 688 / 8`` pixels wide:
10 pt (matplotlib's default, used for legends) up to about 1190 px, 9 pt up to about 1070 px, so
two panels side by side in a figure 10.5 inches wide stay readable.
"""

#: Legends — matplotlib's default size (10 pt), not "small".
LEGEND_PT = 10.0
#: The smallest text a plot function draws — annotations, iso-F1 labels, dense matrix cells.
SMALL_TEXT_PT = 9.0
