"""Seeded, category-stratified train/holdout split, batches that rotate through the train pool, and
the proposed tasks' own slots next to them.

Declared families (tasks/families.py) can be kept whole on one side (`split_suite(..., families=True)`),
or, on a suite built of families (benchmarks/terminal-families), split inside each family with a few
whole families held out (`split_suite(..., whole_families=N)`): the holdout then has in-family
instances, whose siblings were trained on, and out-of-family ones, whose family never was.
`holdout_twins` tells which holdout tasks have a family member in the train pool.

Batches are a pure function of (train pool, batch size, seed, cycle): a resumed run asks for the
same cycle and gets the same batch, with no state to store. Within an epoch every train task is
used once before any repeats (a-evolve re-uses the same first N tasks every cycle).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from adaptive_skill.tasks.model import Task


def split_suite(tasks: Sequence[Task], holdout_ratio: float, seed: int,
                families: bool = False, whole_families: int = 0) -> tuple[list[Task], list[Task]]:
    """(train, holdout). Each category contributes about `holdout_ratio` of its tasks; the total is
    rounded with largest remainders, and with a non-zero ratio and 2+ tasks both sides are non-empty.
    With `families`, each declared family (Task.family) goes whole to one side (_split_families).
    With `whole_families` N > 0, N declared families go whole to the holdout (held_out_families)
    and the rest is split as here with each family its own stratum, so every other family has
    `holdout_ratio` of its instances held out (ValueError when the suite declares N or fewer)."""
    if not 0.0 <= holdout_ratio < 1.0:
        raise ValueError("holdout_ratio must be in [0, 1)")
    if families and whole_families:
        raise ValueError("keeping every family whole (split_by_family) and splitting inside families "
                         "(holdout_families) exclude each other")
    if families:
        return _split_families(tasks, holdout_ratio, seed)
    if whole_families:
        held = set(held_out_families(tasks, whole_families, seed))
        rest = [t for t in tasks if t.family not in held]
        train, holdout = _stratified(rest, holdout_ratio, seed, lambda t: f"family {t.family}" if t.family
                                     else t.category)
        whole = [t for t in tasks if t.family in held]
        return train, sorted(holdout + whole, key=lambda t: t.id)
    return _stratified(tasks, holdout_ratio, seed, lambda t: t.category)


def held_out_families(tasks: Sequence[Task], count: int, seed: int) -> list[str]:
    """The `count` declared families a split holds out whole: a seeded order of the families, taking
    one of each category before a second of any, so the out-of-family holdout spans kinds of work."""
    categories: dict[str, str] = {}
    for task in sorted(tasks, key=lambda t: t.id):
        if task.family:
            categories.setdefault(task.family, task.category)
    if count >= len(categories):
        raise ValueError(f"holdout_families {count}: the suite declares {len(categories)} families; "
                         "at least one must stay to train on")
    order = sorted(categories)
    random.Random(f"{seed}:whole-families").shuffle(order)
    chosen: list[str] = []
    while len(chosen) < count:
        seen = {categories[f] for f in chosen}  # once every category has one, any family is next
        pick = next((f for f in order if f not in chosen and categories[f] not in seen), None)
        chosen.append(pick or next(f for f in order if f not in chosen))
    return sorted(chosen)


def _stratified(tasks: Sequence[Task], holdout_ratio: float, seed: int, key) -> tuple[list[Task], list[Task]]:
    by_category: dict[str, list[Task]] = defaultdict(list)
    for task in sorted(tasks, key=lambda t: t.id):
        by_category[key(task)].append(task)
    for category, members in by_category.items():
        random.Random(f"{seed}:split:{category}").shuffle(members)

    total = len(tasks)
    target = round(total * holdout_ratio)
    if holdout_ratio > 0 and total >= 2:
        target = min(max(target, 1), total - 1)
    exact = {c: len(m) * holdout_ratio for c, m in by_category.items()}
    counts = {c: int(v) for c, v in exact.items()}
    # Hand out what rounding down left over, biggest fractional parts first (ties by name).
    remainder_order = sorted(by_category, key=lambda c: (-(exact[c] - counts[c]), c))
    for category in remainder_order:
        if sum(counts.values()) >= target:
            break
        if counts[category] < len(by_category[category]):
            counts[category] += 1
    while sum(counts.values()) > target:  # only when the minimum-one rule does not apply
        largest = max(counts, key=lambda c: (counts[c], c))
        counts[largest] -= 1

    holdout = [t for c, m in by_category.items() for t in m[:counts[c]]]
    train = [t for c, m in by_category.items() for t in m[counts[c]:]]
    return sorted(train, key=lambda t: t.id), sorted(holdout, key=lambda t: t.id)


def _split_families(tasks: Sequence[Task], holdout_ratio: float, seed: int) -> tuple[list[Task], list[Task]]:
    """split_suite over units: a declared family is one unit, every other task its own. A unit counts
    in the category of its first task (by id); each category's units are shuffled with the same seed
    as split_suite's, and its share is filled by taking, in that order, each unit that fits, then a
    unit that overshoots if that comes closer; what one category overshoots or misses is carried into
    the next (in name order), so the total stays close. With no family declared this is split_suite exactly."""
    units: dict[tuple[str, str], list[Task]] = defaultdict(list)
    for task in sorted(tasks, key=lambda t: t.id):
        units[("family", task.family) if task.family else ("task", task.id)].append(task)
    by_category: dict[str, list[list[Task]]] = defaultdict(list)
    for unit in sorted(units.values(), key=lambda members: members[0].id):
        by_category[unit[0].category].append(unit)
    for category, members in by_category.items():
        random.Random(f"{seed}:split:{category}").shuffle(members)
    sizes = {c: sum(len(u) for u in m) for c, m in by_category.items()}
    total = len(tasks)
    target = round(total * holdout_ratio)
    if holdout_ratio > 0 and total >= 2:
        target = min(max(target, 1), total - 1)
    # Each category's share, rounded with largest remainders as split_suite does.
    exact = {c: n * holdout_ratio for c, n in sizes.items()}
    shares = {c: int(v) for c, v in exact.items()}
    for category in sorted(by_category, key=lambda c: (-(exact[c] - shares[c]), c)):
        if sum(shares.values()) >= target:
            break
        if shares[category] < sizes[category]:
            shares[category] += 1
    while sum(shares.values()) > target:
        shares[max(shares, key=lambda c: (shares[c], c))] -= 1

    held: list[list[Task]] = []
    surplus = 0  # holdout tasks so far minus the shares so far
    for category in sorted(by_category):  # a fixed order, so the carry is reproducible
        want, count = shares[category] - surplus, 0
        rest = []
        for unit in by_category[category]:  # first what fits, in the seeded order
            if count + len(unit) <= want:
                held.append(unit)
                count += len(unit)
            else:
                rest.append(unit)
        for unit in rest:  # then a unit that overshoots, if that comes closer
            if abs(count + len(unit) - want) < abs(count - want):
                held.append(unit)
                count += len(unit)
        surplus += count - shares[category]
    unit_list = [u for c in sorted(by_category) for u in by_category[c]]
    if holdout_ratio > 0 and len(unit_list) >= 2:  # both sides non-empty, as split_suite promises
        if not held:
            held.append(min(unit_list, key=lambda u: (len(u), u[0].id)))
        elif len(held) == len(unit_list):
            held.remove(max(held, key=lambda u: (len(u), u[0].id)))
    held_ids = {t.id for unit in held for t in unit}
    ordered = sorted(tasks, key=lambda t: t.id)
    return [t for t in ordered if t.id not in held_ids], [t for t in ordered if t.id in held_ids]


def holdout_twins(train: Sequence[Task], holdout: Sequence[Task]) -> tuple[dict[str, list[str]], list[str]]:
    """(twins, others) of a split's holdout: `twins` maps each holdout task with a declared family
    member in the train pool to those train tasks' ids; `others` are the remaining holdout ids. A curve
    on `twins` measures recall of a sibling's command, one on `others` a lesson that carries over."""
    by_family: dict[str, list[str]] = defaultdict(list)
    for task in train:
        if task.family:
            by_family[task.family].append(task.id)
    twins = {t.id: sorted(by_family[t.family]) for t in holdout if t.family and by_family.get(t.family)}
    return dict(sorted(twins.items())), sorted(t.id for t in holdout if t.id not in twins)


def batch_for_cycle(train: Sequence[Task], batch_size: int, seed: int, cycle: int) -> list[Task]:
    """The batch of cycle `cycle` (0-based): consecutive slices of a stream of seeded epoch
    permutations, never the same task twice in one batch."""
    if batch_size <= 0:
        raise ValueError("batch_size must be positive")
    pool = sorted(train, key=lambda t: t.id)
    if not pool:
        return []
    size = min(batch_size, len(pool))
    stream = _epoch_stream(pool, seed)
    deferred: list[Task] = []
    batch: list[Task] = []
    for _ in range(cycle + 1):
        batch, seen = [], set()
        candidates = deferred
        deferred = []
        while len(batch) < size:
            task = candidates.pop(0) if candidates else next(stream)
            if task.id in seen:
                deferred.append(task)  # a repeat across an epoch boundary waits for the next batch
                continue
            seen.add(task.id)
            batch.append(task)
        deferred = candidates + deferred
    return batch


def _epoch_stream(pool: list[Task], seed: int):
    epoch = 0
    while True:
        order = list(pool)
        random.Random(f"{seed}:epoch:{epoch}").shuffle(order)
        yield from order
        epoch += 1


def proposed_batch(admitted: Sequence[tuple[Task, int]], slots: int, cycle: int) -> list[Task]:
    """The admitted proposed tasks in the `slots` places of engine cycle `cycle` (1-based) that are
    theirs alone, next to the suite's batch (which they never change: batch_for_cycle sees the suite's
    train tasks only). `admitted` pairs each task with the cycle that admitted it; it is available
    from the next cycle on. Each cycle takes the least-used available tasks (ties: admitted earlier,
    then by id), so no proposed task comes twice before every available one came once, and a new one
    comes soon. A pure function of its arguments, like batch_for_cycle."""
    if slots <= 0 or not admitted:
        return []
    order = sorted(admitted, key=lambda pair: (pair[1], pair[0].id))
    used = {task.id: 0 for task, _ in order}
    batch: list[Task] = []
    for current in range(1, cycle + 1):
        available = [task for task, made in order if made < current]
        batch = sorted(available, key=lambda task: used[task.id])[:slots]  # stable: admission order breaks ties
        for task in batch:
            used[task.id] += 1
    return batch


def cycle_batch(train: Sequence[Task], admitted: Sequence[tuple[Task, int]], batch_size: int, slots: int, seed: int,
                cycle: int) -> list[Task]:
    """What engine cycle `cycle` (1-based) solves: the suite's batch (batch_for_cycle over the train
    tasks alone, so proposals never reorder it) and then the proposed tasks' own slots."""
    return batch_for_cycle(train, batch_size, seed, cycle - 1) + proposed_batch(admitted, slots, cycle)
