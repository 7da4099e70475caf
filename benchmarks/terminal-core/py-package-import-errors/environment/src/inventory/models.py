import csv
from dataclasses import dataclass
from decimal import Decimal

from .report import CURRENCY


@dataclass
class Item:
    sku: str
    name: str
    qty: int
    unit_price: Decimal
    currency: str = CURRENCY

    @property
    def value(self) -> Decimal:
        return self.unit_price * self.qty


def load_items(path):
    with open(path, newline="") as f:
        return [Item(r["sku"], r["name"], int(r["qty"]), Decimal(r["unit_price"])) for r in csv.DictReader(f)]
