from utils import money

from .models import Item

CURRENCY = "EUR"


def render(items: "list[Item]") -> str:
    lines = [f"{'SKU':<8} {'NAME':<20} {'QTY':>5} {'VALUE':>12}"]
    total = 0
    for it in sorted(items, key=lambda i: i.value, reverse=True):
        lines.append(f"{it.sku:<8} {it.name:<20} {it.qty:>5} {money(it.value):>12}")
        total += it.value
    lines.append(f"{'TOTAL':<35} {money(total):>12}")
    return "\n".join(lines) + "\n"
