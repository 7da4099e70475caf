"""Pagination helper used by the reporting API."""


class Page:
    def __init__(self, items, number, total_pages):
        self.items = items
        self.number = number
        self.total_pages = total_pages

    @property
    def has_next(self):
        return self.number < self.total_pages - 1

    @property
    def has_prev(self):
        return self.number > 1

    def __repr__(self):
        return f"Page({self.number}/{self.total_pages}, {self.items!r})"


def paginate(items, page, per_page=10):
    """Return page number `page` (1-based) of `items`, `per_page` items per page.

    - total_pages is the number of pages needed to show every item, and at least 1
      (an empty list has a single, empty page).
    - ValueError if per_page < 1 or page is not in 1..total_pages.
    """
    if per_page < 1:
        raise ValueError("per_page must be >= 1")
    items = list(items)
    total_pages = max(1, len(items) // per_page)
    if page < 1 or page > total_pages:
        raise ValueError(f"page {page} out of range 1..{total_pages}")
    start = page * per_page
    end = start + per_page
    return Page(items[start:end], page, total_pages)
