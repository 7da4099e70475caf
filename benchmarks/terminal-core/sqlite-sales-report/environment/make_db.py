import random
import sqlite3

random.seed(7)
db = sqlite3.connect("/app/sales.db")
db.executescript("""
CREATE TABLE regions (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region_id INTEGER REFERENCES regions(id));
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id),
                     order_date TEXT NOT NULL, status TEXT NOT NULL);
CREATE TABLE order_items (order_id INTEGER REFERENCES orders(id), product TEXT NOT NULL,
                          qty INTEGER NOT NULL, unit_price_cents INTEGER NOT NULL);
""")
regions = ["North", "South", "East", "West", "Central", "Islands"]
db.executemany("INSERT INTO regions VALUES (?, ?)", list(enumerate(regions, 1)))
for c in range(1, 121):
    rid = random.randint(1, 5)  # nobody lives on the Islands
    db.execute("INSERT INTO customers VALUES (?, ?, ?)", (c, f"Customer {c}", rid))
products = [("widget", 499), ("gadget", 1250), ("gizmo", 7999), ("doohickey", 325), ("sprocket", 1999)]
oid = 0
for _ in range(900):
    oid += 1
    year = random.choice([2022, 2023, 2023, 2023, 2024])
    date = f"{year}-{random.randint(1, 12):02d}-{random.randint(1, 28):02d}"
    if random.random() < 0.05:
        date += f" {random.randint(0, 23):02d}:{random.randint(0, 59):02d}:00"
    status = random.choice(["paid"] * 6 + ["shipped"] * 3 + ["cancelled", "refunded"])
    db.execute("INSERT INTO orders VALUES (?, ?, ?, ?)", (oid, random.randint(1, 120), date, status))
    for _ in range(random.randint(1, 4)):
        p, price = random.choice(products)
        db.execute("INSERT INTO order_items VALUES (?, ?, ?, ?)", (oid, p, random.randint(1, 5), price))
# a few orders with no items at all
for _ in range(3):
    oid += 1
    db.execute("INSERT INTO orders VALUES (?, ?, '2023-06-15', 'paid')", (oid, random.randint(1, 120)))
db.commit()
