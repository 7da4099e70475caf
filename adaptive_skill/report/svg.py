"""Charts as inline SVG, drawn here in Python so the report needs no script library and no network.
Every text that reaches the markup goes through `escape`: task names and reasons come from the run."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 520, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 28, 40


@dataclass
class Series:
    name: str
    color: str
    values: Sequence[float | None]  # one per x label; None leaves a gap


class _Frame:
    """Maps data to pixels for a chart with categorical x and linear y."""

    def __init__(self, labels: Sequence[str], y_max: float, y_min: float = 0.0):
        self.labels = list(labels)
        self.y_min, self.y_max = y_min, y_max if y_max > y_min else y_min + 1.0
        self.plot_w, self.plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(self, index: int) -> float:
        step = self.plot_w / max(1, len(self.labels))
        return LEFT + step * (index + 0.5)

    def y(self, value: float) -> float:
        share = (value - self.y_min) / (self.y_max - self.y_min)
        return TOP + self.plot_h * (1 - share)

    def band(self) -> float:
        return self.plot_w / max(1, len(self.labels))

    def axes(self, title: str) -> list[str]:
        parts = [f'<text class="title" x="{LEFT}" y="16">{escape(title)}</text>']
        for tick in _ticks(self.y_min, self.y_max):
            y = self.y(tick)
            parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>')
            parts.append(f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{_num(tick)}</text>')
        every = max(1, len(self.labels) // 12)  # keep x labels readable on long runs
        for index, label in enumerate(self.labels):
            if index % every == 0:
                parts.append(f'<text class="tick" x="{self.x(index):.1f}" y="{HEIGHT - BOTTOM + 16}" '
                             f'text-anchor="middle">{escape(label)}</text>')
        return parts


def line_chart(title: str, labels: Sequence[str], series: Sequence[Series], *, y_max: float | None = None,
               guides: Sequence[tuple[float, str]] = ()) -> str:
    """Lines with dots; `guides` are dashed horizontal lines (a budget, a threshold)."""
    values = [v for s in series for v in s.values if v is not None] + [g[0] for g in guides]
    frame = _Frame(labels, y_max if y_max is not None else _nice_max(max(values, default=1.0)))
    parts = frame.axes(title)
    for value, name in guides:
        y = frame.y(value)
        parts.append(f'<line class="guide" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
                     f'<text class="guide-label" x="{WIDTH - RIGHT}" y="{y - 4:.1f}" text-anchor="end">'
                     f'{escape(name)}</text>')
    for s in series:
        points = [(frame.x(i), frame.y(v), v) for i, v in enumerate(s.values) if v is not None]
        if len(points) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in points)
            parts.append(f'<polyline class="series" points="{path}" stroke="{s.color}"/>')
        for (x, y, v), label in zip(points, [lab for lab, v in zip(labels, s.values, strict=True) if v is not None],
                                    strict=True):
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{s.color}">'
                         f'<title>{escape(s.name)}, {escape(label)}: {_num(v)}</title></circle>')
    return _svg(title, parts, series)


def bar_chart(title: str, labels: Sequence[str], series: Sequence[Series], *, unit: str = "") -> str:
    """Stacked bars, one stack per x label."""
    totals = [sum(s.values[i] or 0 for s in series) for i in range(len(labels))]
    frame = _Frame(labels, _nice_max(max(totals, default=1.0) or 1.0))
    parts = frame.axes(title)
    width = min(36.0, frame.band() * 0.6)
    for index, label in enumerate(labels):
        bottom = 0.0
        for s in series:
            value = s.values[index] or 0
            if value <= 0:
                continue
            y_top, y_bottom = frame.y(bottom + value), frame.y(bottom)
            parts.append(f'<rect class="bar" x="{frame.x(index) - width / 2:.1f}" y="{y_top:.1f}" width="{width:.1f}" '
                         f'height="{max(0.5, y_bottom - y_top):.1f}" fill="{s.color}"><title>{escape(s.name)}, '
                         f'{escape(label)}: {_num(value)}{escape(unit)}</title></rect>')
            bottom += value
    return _svg(title, parts, series)


def strip_chart(title: str, rows: Sequence[tuple[str, str, Sequence[tuple[float, str]]]], *, x_max: float = 10.0,
                marker: float | None = None, marker_label: str = "") -> str:
    """Dots on horizontal lanes: (lane name, color, [(x, tooltip)]), e.g. judge scores of passed vs failed."""
    lane_h = 36
    height = TOP + lane_h * len(rows) + BOTTOM
    plot_w = WIDTH - LEFT - 70 - RIGHT
    left = LEFT + 70

    def x_of(value: float) -> float:
        return left + plot_w * max(0.0, min(1.0, value / x_max))

    parts = [f'<text class="title" x="{LEFT}" y="16">{escape(title)}</text>']
    for tick in _ticks(0.0, x_max):
        parts.append(f'<line class="grid" x1="{x_of(tick):.1f}" x2="{x_of(tick):.1f}" y1="{TOP}" '
                     f'y2="{TOP + lane_h * len(rows)}"/><text class="tick" x="{x_of(tick):.1f}" '
                     f'y="{TOP + lane_h * len(rows) + 16}" text-anchor="middle">{_num(tick)}</text>')
    if marker is not None:
        x = x_of(marker)
        parts.append(f'<line class="guide" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP - 4}" y2="{TOP + lane_h * len(rows)}"/>'
                     f'<text class="guide-label" x="{x + 3:.1f}" y="{TOP - 6}">{escape(marker_label)}</text>')
    for lane, (name, color, points) in enumerate(rows):
        y = TOP + lane_h * lane + lane_h / 2
        parts.append(f'<text class="tick" x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{escape(name)}</text>')
        for index, (value, tip) in enumerate(points):
            jitter = ((index * 7) % 5 - 2) * 3  # spread equal scores so each dot stays visible
            parts.append(f'<circle cx="{x_of(value):.1f}" cy="{y + jitter:.1f}" r="4" fill="{color}" '
                         f'fill-opacity="0.75"><title>{escape(tip)}</title></circle>')
    return _svg(title, parts, [], height=height)


@dataclass
class Estimate:
    label: str
    mean: float | None  # None: nothing measured, the lane says so
    low: float | None
    high: float | None
    color: str
    tip: str = ""  # extra words for the tooltip


def interval_chart(title: str, rows: Sequence[Estimate], *, x_min: float, x_max: float,
                   marker: float | None = None, marker_label: str = "", percent: bool = True) -> str:
    """One lane per estimate: a dot at its mean and a whisker over its interval, on a shared x axis
    (a forest plot); `marker` is a dashed vertical line (zero, the seed's level)."""
    lane_h, label_w = 30, 150
    height = TOP + lane_h * max(1, len(rows)) + BOTTOM
    width = WIDTH + 160
    left, plot_w = LEFT + label_w, width - LEFT - label_w - 3 * RIGHT  # room for the last tick's text
    span = (x_max - x_min) or 1.0

    def x_of(value: float) -> float:
        return left + plot_w * max(0.0, min(1.0, (value - x_min) / span))

    def shown(value: float) -> str:
        if not percent:
            return _num(value)
        if not round(100 * value):
            return "0%"
        return f"{100 * value:+.0f}%" if x_min < 0 else f"{100 * value:.0f}%"

    bottom = TOP + lane_h * max(1, len(rows))
    parts = [f'<text class="title" x="{LEFT}" y="16">{escape(title)}</text>']
    for tick in _ticks(x_min, x_max):
        parts.append(f'<line class="grid" x1="{x_of(tick):.1f}" x2="{x_of(tick):.1f}" y1="{TOP}" y2="{bottom}"/>'
                     f'<text class="tick" x="{x_of(tick):.1f}" y="{bottom + 16}" text-anchor="middle">'
                     f'{escape(shown(tick))}</text>')
    if marker is not None:
        x = x_of(marker)
        parts.append(f'<line class="guide" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP - 4}" y2="{bottom}"/>'
                     f'<text class="guide-label" x="{x + 3:.1f}" y="{TOP - 6}">{escape(marker_label)}</text>')
    for lane, row in enumerate(rows):
        y = TOP + lane_h * lane + lane_h / 2
        parts.append(f'<text class="tick lane" x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">'
                     f'{escape(row.label)}</text>')
        if row.mean is None:
            parts.append(f'<text class="tick" x="{left + 4}" y="{y + 4:.1f}">not measured</text>')
            continue
        low = row.mean if row.low is None else row.low
        high = row.mean if row.high is None else row.high
        tip = f"{row.label}: {shown(row.mean)} [{shown(low)}, {shown(high)}]" + (f"; {row.tip}" if row.tip else "")
        parts.append(f'<g class="estimate"><title>{escape(tip)}</title>'
                     f'<line class="whisker" x1="{x_of(low):.1f}" x2="{x_of(high):.1f}" y1="{y:.1f}" y2="{y:.1f}" '
                     f'stroke="{row.color}"/>'
                     + "".join(f'<line class="whisker" x1="{x_of(v):.1f}" x2="{x_of(v):.1f}" y1="{y - 6:.1f}" '
                               f'y2="{y + 6:.1f}" stroke="{row.color}"/>' for v in (low, high))
                     + f'<circle cx="{x_of(row.mean):.1f}" cy="{y:.1f}" r="5" fill="{row.color}"/></g>')
    return (f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{escape(title)}">' + "".join(parts) + "</svg>")


def _svg(title: str, parts: list[str], series: Sequence[Series], height: int = HEIGHT) -> str:
    legend = []
    x = LEFT
    for s in series:
        legend.append(f'<rect x="{x}" y="{height - 14}" width="10" height="10" fill="{s.color}"/>'
                      f'<text class="legend" x="{x + 14}" y="{height - 5}">{escape(s.name)}</text>')
        x += 24 + 7 * len(s.name)
    return (f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" '
            f'aria-label="{escape(title)}">' + "".join(parts + legend) + "</svg>")


def _ticks(low: float, high: float, count: int = 4) -> list[float]:
    step = (high - low) / count
    return [low + step * i for i in range(count + 1)]


def _nice_max(value: float) -> float:
    """The next round number above value (1, 2, 2.5 or 5 times a power of ten)."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for factor in (1, 2, 2.5, 5, 10):
        if value <= factor * power:
            return factor * power
    return 10 * power


def _num(value: float) -> str:
    if abs(value) >= 100 or value == int(value):
        return f"{value:.0f}"
    return f"{value:.3g}"
