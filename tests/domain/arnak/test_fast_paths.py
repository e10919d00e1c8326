"""The engine's speed paths give what the straightforward code they replace gives.

Each test computes its expected values here, with the plain version of the code (as it was before the speed work),
and checks the engine's answer against it: payments (remembered per hand's icons), whether an effect can start
(its leading costs worked out once per text), ``changed`` (``dataclasses.replace`` without the ``__init__``) and
the bots' view built part by part.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import combinations

import pytest

from domain.arnak import apply, legal_actions, new_game, to_act, view
from domain.arnak.actions import Payment
from domain.arnak.bots import PUBLIC_PARTS
from domain.arnak.bots import PublicFirstView as SeatView
from domain.arnak.components import RESOURCES, Resources, book, resources_of, steps_of
from domain.arnak.effects import cannot_start
from domain.arnak.state import GameState, changed
from domain.arnak.travel import payments, pays
from tests.domain.arnak.helpers import BOOK, game, with_player

ICONS = ("boot", "car", "ship", "plane")


def reference_payments(
    hand: Sequence[int],
    icons_of: dict[int, tuple[str, ...]],
    travel: Sequence[str],
    coins: int,
    charter_coins: int,
    need: Sequence[str],
    discards: int,
) -> Iterator[Payment]:
    """Every payment, enumerated directly (the engine's code before its payments were remembered)."""
    size = len(need) + discards
    for n_cards in range(min(size, len(hand)) + 1):
        for cards in combinations(sorted(hand), n_cards):
            card_icons = [icons_of[c] for c in cards]
            for n_travel in range(min(size - n_cards, len(travel)) + 1):
                seen: set[tuple[str, ...]] = set()
                for spent in combinations(sorted(travel), n_travel):
                    if spent in seen:
                        continue
                    seen.add(spent)
                    for charter in range(min(size - n_cards - n_travel, coins // charter_coins) + 1):
                        if pays(card_icons, spent, charter, need, discards):
                            yield Payment(cards, spent, charter)


def test_payments_are_those_enumerated_directly() -> None:
    rng = random.Random(5)
    cards = sorted(BOOK.cards)
    costs = {tuple(space.cost) for board in BOOK.boards.values() for space in board.spaces.values()}
    costs |= {guardian.travel for guardian in BOOK.guardians.values()}
    for _ in range(1500):
        hand = rng.sample(cards, rng.randint(0, 7))
        planes = rng.random() < 0.1  # Guardian's Ocarina: every icon a plane
        icons_of = {c: ("plane",) * len(BOOK.card(c).travel) if planes else BOOK.card(c).travel for c in hand}
        travel = [rng.choice(ICONS) for _ in range(rng.choice((0, 0, 0, 1, 2, 3)))]
        coins = rng.randint(0, 7)
        need = rng.choice(sorted(costs))
        discards = rng.choice((0, 0, 0, 1, 2))
        expected = list(reference_payments(hand, icons_of, travel, coins, 2, need, discards))
        # twice: once worked out, once remembered
        assert payments(hand, icons_of, travel, coins, 2, need, discards) == expected
        assert payments(hand, icons_of, travel, coins, 2, need, discards) == expected


def reference_cannot_start(state: GameState, seat: int, text: str, hand_loss: int = 0) -> str | None:
    """Why the effect cannot start, worked out step by step (the engine's code before the needs were remembered)."""
    p = state.seats[seat]
    owed = [0] * len(RESOURCES)
    hand = len(p.hand) - hand_loss
    for step in steps_of(text):
        if step["op"] == "pay":
            for i, amount in enumerate(resources_of(step["res"])):
                owed[i] += amount
            if not all(h >= o for h, o in zip(p.resources, owed, strict=True)):
                return f"the effect costs {', '.join(f'{n} {r}' for r, n in step['res'].items())} and you cannot pay it"
        elif step["op"] == "discard":
            if hand < step["n"]:
                return f"the effect needs {step['n']} card(s) to discard from your hand"
            hand -= step["n"]
        elif step["op"] != "exile_self":
            return None
    return None


def printed_effects() -> list[str]:
    b = book()
    texts = [card.effect for card in b.cards.values()]
    texts += [tile.effect for tiles in (b.idols, b.site_tiles, b.bonus_tiles) for tile in tiles.values()]
    texts += [guardian.boon for guardian in b.guardians.values()]
    texts += [side for assistant in b.assistants.values() for side in (assistant.silver, assistant.gold)]
    texts += [option.effect for option in b.idol_slot_options.values()]
    texts += [loc.effect for board in b.boards.values() for loc in board.locations if loc.effect is not None]
    return sorted(set(texts))


@pytest.mark.parametrize("seed", range(3))
def test_cannot_start_is_the_step_by_step_answer(seed: int) -> None:
    rng = random.Random(seed)
    state = game(2, f"fast-{seed}")
    texts = printed_effects()
    assert any(reference_cannot_start(state, 0, text) for text in texts), "some effects have costs"
    for _ in range(300):
        amounts: Resources = (
            rng.randint(0, 3),
            rng.randint(0, 3),
            rng.randint(0, 2),
            rng.randint(0, 2),
            rng.randint(0, 1),
        )
        hand = tuple(rng.sample(sorted(BOOK.cards), rng.randint(0, 4)))
        position = with_player(state, 0, resources=amounts, hand=hand)
        for text in texts:
            loss = rng.randint(0, 2)
            assert cannot_start(position, 0, text, hand_loss=loss) == reference_cannot_start(position, 0, text, loss)


def test_changed_is_replace() -> None:
    state = game(3, "changed")
    assert changed(state, turn=2, main_done=True) == replace(state, turn=2, main_done=True)
    player = state.seats[1]
    assert changed(player, passed=True, travel=("car",)) == replace(player, passed=True, travel=("car",))
    assert state.turn == 0 and not player.passed, "the original is left as it was"
    with pytest.raises(AssertionError, match="not fields"):
        changed(state, turns=2)


def test_a_seat_view_reads_as_the_view() -> None:
    """Read part by part (the board's public parts first, as the heuristic bot does) or whole, a SeatView is the
    seat's view."""
    rng = random.Random(2)
    for n, side in ((1, "bird"), (3, "snake"), (4, "bird")):
        state = new_game([f"p{i}" for i in range(n)], {"side": side}, f"seat-view-{n}")
        while state.outcome is None:
            (seat,) = to_act(state)
            expected = view(state, seat)
            parts = SeatView(state, seat)
            assert {key: parts[key] for key in PUBLIC_PARTS} == {key: expected[key] for key in PUBLIC_PARTS}
            assert parts.get("sites") == expected["sites"] and parts.get("nothing", 1) == 1
            assert dict(parts) == expected
            assert dict(SeatView(state, seat)) == expected
            state = apply(state, rng.choice(legal_actions(state, seat)))
