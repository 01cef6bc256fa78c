"""An inline SVG bar chart of events over time, stacked by group (no plotting library, no script).

The time range is cut into at most :data:`MAX_BUCKETS` buckets of a round
width (a second up to a week); each bar stacks the events of the largest
groups in their colours, the rest in grey. Every bar segment carries a
``<title>``, which browsers show as a tooltip.

>>> from datetime import datetime
>>> svg = timeline_svg(
...     [(datetime(2026, 1, 2, 3, 0), 0), (datetime(2026, 1, 2, 3, 7), 1)],
...     ["ValueError: x", "KeyError: y"],
... )
>>> svg.startswith("<svg") and svg.count("<rect") >= 2
True
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Final

__all__ = ["COLORS", "MAX_BUCKETS", "bucket_width", "buckets", "per_file_svg", "timeline_svg"]

#: Colours of the largest groups, in order (Okabe and Ito's palette, told apart by most
#: colour-blind readers), then the grey of all other groups.
COLORS: Final = (
    "#0072b2",
    "#e69f00",
    "#009e73",
    "#cc79a7",
    "#56b4e9",
    "#d55e00",
    "#f0e442",
    "#000000",
)
OTHER_COLOR: Final = "#9a9a9a"
#: Most bars a chart draws.
MAX_BUCKETS: Final = 120
_WIDTHS: Final = tuple(
    timedelta(seconds=s)
    for s in (
        1,
        5,
        15,
        30,
        60,
        300,
        900,
        1800,
        3600,
        3 * 3600,
        6 * 3600,
        12 * 3600,
        86400,
        7 * 86400,
    )
)
_W, _H = 960, 260  # the drawing's size
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 12, 12, 44


def buckets(start: datetime, end: datetime) -> tuple[datetime, timedelta, int]:
    """The bars from ``start`` to ``end``: the first's start, the smallest round width, how many.

    Bars start at round times (a multiple of their width since 2000-01-01);
    there are never more than :data:`MAX_BUCKETS`.

    >>> buckets(datetime(2026, 1, 1, 0, 2), datetime(2026, 1, 1, 6))
    (datetime.datetime(2026, 1, 1, 0, 0), datetime.timedelta(seconds=300), 73)
    """
    width = _WIDTHS[0]
    candidates = iter(_WIDTHS)
    while True:
        width = next(candidates, None) or width + timedelta(days=7)
        first = _floor(start, width)
        count = (end - first) // width + 1
        if count <= MAX_BUCKETS:
            return first, width, count


def bucket_width(start: datetime, end: datetime) -> timedelta:
    """The width of the bars from ``start`` to ``end`` (see :func:`buckets`).

    >>> bucket_width(datetime(2026, 1, 1), datetime(2026, 1, 1, 6))
    datetime.timedelta(seconds=300)
    """
    return buckets(start, end)[1]


def _floor(when: datetime, width: timedelta) -> datetime:
    epoch = datetime(2000, 1, 1)
    steps = (when - epoch) // width
    return epoch + steps * width


def _label(when: datetime, width: timedelta) -> str:
    if width >= timedelta(days=1):
        return when.strftime("%Y-%m-%d")
    if width >= timedelta(minutes=1):
        return when.strftime("%m-%d %H:%M")
    return when.strftime("%H:%M:%S")


def _nice_max(value: int) -> int:
    """The smallest 1, 2, 4 or 5 times a power of ten that is at least ``value``.

    >>> [_nice_max(v) for v in (0, 3, 7, 41, 180)]
    [1, 4, 10, 50, 200]
    """
    scale = 1
    while True:
        for step in (1, 2, 4, 5):
            if step * scale >= value:
                return step * scale
        scale *= 10


def _frame(top: int, y_label: str) -> list[str]:
    """The axes, the horizontal grid lines and their labels."""
    plot_h = _H - _TOP - _BOTTOM
    parts = []
    for i in range(5):
        value = top * i // 4
        y = _TOP + plot_h - plot_h * i / 4
        parts.append(
            f'<line x1="{_LEFT}" x2="{_W - _RIGHT}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
            f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{value}</text>'
        )
    parts.append(
        f'<text x="12" y="{_TOP + plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 12 {_TOP + plot_h / 2:.1f})">{html.escape(y_label)}</text>'
    )
    return parts


def _bars(
    columns: Sequence[Sequence[int]],
    column_labels: Sequence[str],
    series: Sequence[str],
    tick_every: int,
    y_label: str,
) -> str:
    """Stacked bars: ``columns[i][s]`` events of series ``s`` in column ``i``."""
    plot_w = _W - _LEFT - _RIGHT
    plot_h = _H - _TOP - _BOTTOM
    top = _nice_max(max((sum(c) for c in columns), default=1))
    step = plot_w / max(len(columns), 1)
    bar = max(step * 0.85, 1.0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {_H}" role="img" '
        f'class="chart" aria-label="{html.escape(y_label)}">',
        *_frame(top, y_label),
    ]
    for i, column in enumerate(columns):
        x = _LEFT + i * step + (step - bar) / 2
        y = float(_TOP + plot_h)
        for s, count in enumerate(column):
            if not count:
                continue
            h = plot_h * count / top
            y -= h
            color = COLORS[s] if s < len(COLORS) else OTHER_COLOR
            tip = f"{column_labels[i]}: {count} of {series[s]}"
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                f'fill="{color}" data-series="{s}"><title>{html.escape(tip)}</title></rect>'
            )
        if i % tick_every == 0:
            parts.append(
                f'<text x="{x + bar / 2:.1f}" y="{_H - _BOTTOM + 16}" text-anchor="middle" '
                f'class="tick">{html.escape(column_labels[i])}</text>'
            )
    base = _TOP + plot_h
    parts.append(f'<line x1="{_LEFT}" x2="{_W - _RIGHT}" y1="{base}" y2="{base}" class="axis"/>')
    parts.append("</svg>")
    return "".join(parts)


def timeline_svg(points: Sequence[tuple[datetime, int]], series: Sequence[str]) -> str:
    """Events over time: ``points`` are ``(time, series index)``; the last series may be "other".

    Series past the palette's length are drawn in grey.
    """
    if not points:
        return ""
    start = min(t for t, _ in points)
    end = max(t for t, _ in points)
    first, width, count = buckets(start, end)
    columns = [[0] * len(series) for _ in range(count)]
    for when, s in points:
        columns[(when - first) // width][s] += 1
    labels = [_label(first + i * width, width) for i in range(count)]
    tick_every = max(1, count // 8)
    minutes = width.total_seconds() / 60
    unit = (
        f"{width.days} day(s)"
        if width >= timedelta(days=1)
        else f"{minutes:g} min"
        if minutes >= 1
        else f"{width.seconds} s"
    )
    return _bars(columns, labels, series, tick_every, f"events per {unit}")


def per_file_svg(
    columns: Sequence[Sequence[int]], files: Sequence[str], series: Sequence[str]
) -> str:
    """Events per file (for logs without timestamps), stacked by series like the timeline."""
    if not columns:
        return ""
    shown = list(columns[:MAX_BUCKETS])
    labels = list(files[:MAX_BUCKETS])
    return _bars(shown, labels, series, max(1, len(shown) // 8), "events per file")
