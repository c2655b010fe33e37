"""Polygons rasterised into RLEs exactly as pycocotools' ``rleFrPoly`` does (5x finer grid)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._validation.masks import (
    check_image_size,
    check_polygons,
)
from ._rle import RleSet, _segment_starts, _toggles_to_rle_set

_POLY_SCALE = 5  # pycocotools rasterises polygons on a grid 5x finer than the pixels


# --------------------------------------------------------------------------------------------
# Polygons
# --------------------------------------------------------------------------------------------


def _first_in_class(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Fine columns c in [lo, hi] with c ≡ 2 (mod 5) — the centres of pixel columns: (first, count)."""
    first = lo + (2 - lo) % _POLY_SCALE
    return first, np.maximum((hi - first) // _POLY_SCALE + 1, 0)


def _pixel_columns(
    edges: np.ndarray, first: np.ndarray, n: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each edge's n pixel columns from its first centre ``first`` (fine units): (edge, column) pairs."""
    e = np.repeat(edges, n)
    col = np.repeat((first - 2) // _POLY_SCALE - _segment_starts(n)[:-1], n)
    col += np.arange(e.shape[0])
    return e, col


def _polygon_toggles(
    coords: np.ndarray, k: np.ndarray, heights: np.ndarray, widths: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The boundary points of ``rleFrPoly`` for all polygons: (polygon, pixel index) pairs.

    pycocotools scales the vertices by 5, rounds them, and walks each edge one fine step at a time
    along its longer axis, rounding the other coordinate.  A pair of consecutive points whose fine x
    are c and c + 1 with c ≡ 2 (mod 5) (a pixel column's centre) toggles pixel
    ``(x = (c - 2) / 5, y = ceil((min(v) + .5) / 5 - .5))``; no other pair does.  The x coordinate moves
    by at most one per step, so each such column is crossed exactly once per edge that spans it.
    Only those crossings are computed here — about one point in five of the walk (edges along x) or
    one per pixel column (edges along y) — with the walk's own arithmetic, so they are the same.
    """
    if k.shape[0] == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    xy = coords.reshape(-1, 2)
    fine = np.trunc(_POLY_SCALE * xy + 0.5).astype(np.int64)  # C's (int)(5x + .5) truncates
    poly = np.repeat(np.arange(k.shape[0]), k)
    first = _segment_starts(k)[:-1]
    nxt = np.arange(xy.shape[0]) + 1
    nxt[np.r_[first[1:], xy.shape[0]] - 1] = first
    xs0, ys0 = fine[:, 0], fine[:, 1]
    xe0, ye0 = fine[nxt, 0], fine[nxt, 1]
    dx, dy = np.abs(xe0 - xs0), np.abs(ys0 - ye0)
    along_x = dx >= dy
    flip = (along_x & (xs0 > xe0)) | (~along_x & (ys0 > ye0))
    xs, xe = np.where(flip, xe0, xs0), np.where(flip, xs0, xe0)
    ys, ye = np.where(flip, ye0, ys0), np.where(flip, ys0, ye0)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(along_x, (ye - ys) / dx, (xe - xs) / dy)
    s = np.where(np.isfinite(s), s, 0.0)  # a repeated vertex: one point, no crossing
    max_c = _POLY_SCALE * (widths[poly] - 1) + 2  # the last pixel column's centre

    # Edges along x: the point t has u = xs + t, v = (int)(ys + s·t + .5); the pair (t, t + 1) crosses
    # column c = xs + t.
    ex = np.flatnonzero(along_x & (dx > 0))
    cx, nx = _first_in_class(np.maximum(xs[ex], 2), np.minimum(xs[ex] + dx[ex] - 1, max_c[ex]))

    # Edges along y: u(t) = (int)(xs + s·t + .5) is monotone and moves by at most 1 per step; find the
    # step t where it passes between c and c + 1 (estimate, then check the neighbours exactly); v = ys + t.
    ey = np.flatnonzero(~along_x)
    ut = lambda e_, t_: np.trunc(xs[e_] + s[e_] * t_ + 0.5)  # noqa: E731 - the walk's own formula
    u0, u1 = ut(ey, np.zeros(ey.shape[0])), ut(ey, dy[ey].astype(np.float64))
    lo, hi = np.minimum(u0, u1).astype(np.int64), np.maximum(u0, u1).astype(np.int64)
    cy, ny = _first_in_class(np.maximum(lo, 2), np.minimum(hi - 1, max_c[ey]))

    # The crossings of both kinds in one set of arrays (those along x first), each part worked on in
    # place: no concatenation of per-crossing arrays.
    edges, n_cross = np.r_[ex, ey], np.r_[nx, ny]
    e, col = _pixel_columns(edges, np.r_[cx, cy], n_cross)
    split = int(nx.sum())
    v = np.empty(e.shape[0])

    e_x = e[:split]
    t = _POLY_SCALE * col[:split] + 2
    t -= xs[e_x]  # c - xs
    ys_e, s_e = (
        ys[e_x],
        s[e_x],
    )  # gathered once: every crossing reads its edge's start and slope twice
    v1 = s_e * t
    v1 += ys_e  # ys + s·t + .5, then truncated (the sum commutes exactly)
    v1 += 0.5
    np.trunc(v1, out=v1)
    t += 1
    v2 = np.multiply(s_e, t, out=s_e)
    v2 += ys_e
    v2 += 0.5
    np.trunc(v2, out=v2)
    np.minimum(v1, v2, out=v[:split])

    e_y = e[split:]
    c = _POLY_SCALE * col[split:] + 2
    xs_e, s_e = xs[e_y], s[e_y]  # gathered once for the four evaluations below
    guess = np.floor((c + 0.5 - xs_e) / s_e) if e_y.shape[0] else np.zeros(0)
    # u(t) is monotone in t (for every real t, not only the walk's), so "u(t) <= c" keeps the side it
    # has at t = 0 up to the transition T and flips after it: T = guess - 2 + the number of
    # t in guess - 1 ... guess + 2 still on t = 0's side, for any T within two of the guess; clipped
    # to the walk's steps [0, dy - 1] as the candidates of a search there would be.
    at_start = np.repeat(u0, ny) <= c
    same_side = np.zeros(e_y.shape[0], dtype=np.int64)
    t = guess - 2
    u = np.empty_like(t)
    for _ in range(4):
        t += 1
        np.multiply(s_e, t, out=u)
        u += (
            xs_e  # xs + s·t + .5, then truncated: the walk's own formula (the sum commutes exactly)
        )
        u += 0.5
        np.trunc(u, out=u)
        same_side += (u <= c) == at_start
    guess -= 2
    guess += same_side
    found = np.clip(guess, 0, np.repeat(dy[ey] - 1, ny), out=guess)
    np.add(ys[e_y], found, out=v[split:])

    owner = np.repeat(poly[edges], n_cross)
    # one image size (the usual case): a scalar height instead of one per crossing
    height = heights[0] if (heights == heights[0]).all() else heights[owner]
    v += 0.5  # the row: ceil(clip((v + .5) / 5 - .5, 0, h)), in place
    v /= _POLY_SCALE
    v -= 0.5
    np.clip(v, 0, height, out=v)
    np.ceil(v, out=v)
    col *= height
    col += v.astype(np.int64)
    return owner, col


def polygons_to_rle_set(
    coords: np.ndarray, n_points: np.ndarray, heights: Any, widths: Any
) -> RleSet:
    """Checked polygons → one RLE each, as pycocotools' ``frPoly``: ``coords`` holds every polygon's
    x, y pairs one after the other, ``n_points`` their numbers of points; the image size is one
    (height, width) or one per polygon."""
    n = n_points.shape[0]
    heights = np.broadcast_to(np.asarray(heights, dtype=np.int64), (n,))
    widths = np.broadcast_to(np.asarray(widths, dtype=np.int64), (n,))
    owner, pix = _polygon_toggles(coords, n_points, heights, widths)
    return _toggles_to_rle_set(owner, pix, n, heights, widths)


def _flatten_polygons(polys: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Checked polygons (flat arrays) → (all coordinates, points per polygon)."""
    n_points = np.fromiter((p.shape[0] // 2 for p in polys), dtype=np.int64, count=len(polys))
    return (np.concatenate(polys) if polys else np.zeros(0)), n_points


def from_polygons(polygons: Any, height: int, width: int) -> list[dict]:
    """Rasterise polygons into RLEs exactly as ``pycocotools.mask.frPyObjects`` does.

    pycocotools' rule (``rleFrPoly``): the vertices are scaled by 5 and rounded to that fine grid,
    each edge is walked one fine step at a time, and a pixel ``(x, y)`` is inside when it lies below
    an odd number of edge crossings of its column centre.  In practice a pixel is set when its
    centre is inside the polygon, give or take the rounding to fifths of a pixel.

    Parameters
    ----------
    polygons : list of list of float
        Each polygon ``[x1, y1, x2, y2, ...]`` in pixel coordinates, at least 3 points.
    height, width : int
        The image size.

    Returns
    -------
    list of dict
        One RLE per polygon (compressed counts), as ``frPyObjects`` returns; :func:`merge` joins
        the parts of one object, as pycocotools' ``annToRLE`` does.

    Raises
    ------
    ValueError
        A polygon with fewer than 3 points or an odd number of coordinates (pycocotools reads 4
        numbers as a box and fails on fewer), NaN or inf coordinates.

    Examples
    --------
    >>> from mltutor.detection.mask import area, to_bbox
    >>> rle = from_polygons([[0, 0, 4, 0, 4, 4, 0, 4]], 6, 6)[0]
    >>> area(rle), to_bbox(rle).tolist()
    (16, [0.0, 0.0, 4.0, 4.0])
    """
    h, w = check_image_size(height, width)
    coords, n_points = _flatten_polygons(check_polygons(polygons, "polygons"))
    return polygons_to_rle_set(coords, n_points, h, w).to_dicts()
