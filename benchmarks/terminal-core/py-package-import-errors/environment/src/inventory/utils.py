from decimal import ROUND_HALF_UP, Decimal


def money(amount) -> str:
    q = Decimal(amount).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{q:,.2f} EUR"
