"""Reports of a run, read from its run directory alone: `build` computes what there is to show,
`render_html` makes one self-contained page, `render_markdown` the terminal version."""

from adaptive_skill.report.html import render_html
from adaptive_skill.report.markdown import render_markdown
from adaptive_skill.report.model import Report, build

__all__ = ["Report", "build", "render_html", "render_markdown"]
