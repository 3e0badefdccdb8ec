"""Inventory helpers used to demonstrate highlighting."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterable

MAX_ITEMS = 1_000


@dataclass
class Item:
    name: str
    price: float = 0.0
    tags: list[str] = field(default_factory=list)

    def total(self, quantity: int) -> float:
        # Prices are stored in euros.
        return round(self.price * quantity, 2)


class Inventory:
    def __init__(self, items: Iterable[Item] = ()) -> None:
        self._items = {item.name: item for item in items}

    def __len__(self) -> int:
        return len(self._items)

    def add(self, item: Item) -> None:
        if len(self._items) >= MAX_ITEMS:
            raise ValueError(f"inventory full: {len(self._items)} items")
        self._items[item.name] = item

    def cheapest(self, count: int = 3) -> list[Item]:
        return sorted(self._items.values(), key=lambda i: i.price)[:count]

    def to_json(self) -> str:
        payload = [{"name": i.name, "price": i.price, "tags": i.tags} for i in self._items.values()]
        return json.dumps(payload, indent=2)


def parse(text: str) -> Inventory:
    """Builds an inventory from JSON text."""
    data = json.loads(text)
    items = (Item(d["name"], float(d.get("price", 0)), list(d.get("tags", []))) for d in data)
    return Inventory(items)


if __name__ == "__main__":
    inventory = parse('[{"name": "pen", "price": 1.5}, {"name": "ink", "price": 4}]')
    print(len(inventory), inventory.cheapest(1), 0x10, 3.5e-2, None, True)
