"""inventory: load stock items from CSV and print a valuation report."""
from .models import Item, load_items
from .report import render

__all__ = ["Item", "load_items", "render"]
