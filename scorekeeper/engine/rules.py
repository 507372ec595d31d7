"""The game engine's rules: how each event changes the state, and which events break a rule
(docs/rules.md sections 2 and 3; readings in ``docs/rules-readings.md``, "Game engine").

>>> from scorekeeper.engine.state import TableSetup, initial_state
>>> s = apply(initial_state(TableSetup(players=("ann", "bob"))),
...           {"type": "new-hand", "dealer": "bob"})
>>> s = apply(s, {"type": "meld", "player": "ann", "cards": ["Kcl", "Ksp", "Khe"],
...               "top": "Kcl"})
>>> s.scores["ann"], s.turn, s.melds[0].top.code
(30, 'ann', 'Kcl')
>>> apply(s, {"type": "meld", "player": "bob", "cards": ["2cl", "2sp", "2he"]})
Traceback (most recent call last):
...
scorekeeper.engine.state.RuleViolation: It is ann's turn, not bob's.
>>> adjust(s, "bob", 15).scores["bob"]
15

``correction``, ``undo`` and ``amend`` are the fold's (:mod:`scorekeeper.log`): a correction
reaches the engine through :func:`adjust`, read and checked once by the fold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from scorekeeper.cards import Card, TooManyCopiesError
from scorekeeper.engine.events import (
    DoubleCross,
    EndHand,
    LayOff,
    Meld,
    NewHand,
    NextTurn,
    SetTop,
    Steal,
    Toss,
    TossEvent,
    read_event,
)
from scorekeeper.melds import Verdict, judge_layoff, judge_meld, judge_toss
from scorekeeper.outline import Incoming
from scorekeeper.rulesets import COMPLEX, TossOptions
from scorekeeper.tally import TallyError, TallyResult, tally_hand

from .state import (
    GAME_OVER,
    HAND_OVER,
    PLAYING,
    BoardMeld,
    DoubleCrossChance,
    EventError,
    GameState,
    PlayPart,
    RuleViolation,
)

#: The fields of the state an event changes, by name.
Changes = dict[str, object]


def apply(state: GameState, event: Incoming) -> GameState:
    """Return the state after one of the engine's own events; ``state`` is never changed.

    Raises :class:`EventError` for a malformed event and :class:`RuleViolation` (with a
    one-sentence ``reason``) for an event that breaks a rule. ``undo`` and ``correction`` are
    the fold's (:func:`scorekeeper.log.apply`).
    """
    if type(event) is not dict and not isinstance(event, Mapping):
        raise EventError('an event is a JSON object with a "type"')
    return apply_event(state, read_event(state.setup, event))


def apply_event(state: GameState, event: TossEvent) -> GameState:
    """:func:`apply` for an event already read (:func:`scorekeeper.engine.events.read_event`)."""
    _require_not_over(state)
    return _next(state, _changes(state, event))


def adjust(state: GameState, target: str, points: int) -> GameState:
    """The state after a correction the fold has read (:func:`scorekeeper.log.read_correction`):
    ``points`` added to a player's score or to a team's board. In Complex, or between hands,
    a board it takes to the goal wins."""
    _require_not_over(state)
    return _next(state, _adjusted(state, target, points))


def _require_not_over(state: GameState) -> None:
    if state.phase == GAME_OVER:
        raise RuleViolation(f"The game is over ({state.winner} won): no further play is"
                            " recorded, but the last event can be undone.")


def _next(state: GameState, changes: Changes) -> GameState:
    """The state after one more event in effect, which changed ``changes``."""
    changes["events_applied"] = state.events_applied + 1
    changes["previous"] = state
    return _evolve(state, changes)


def preview_end_hand(state: GameState, went_out: str | None,
                     hands: Mapping[str, Sequence[str | Card]]) -> TallyResult:
    """The tally an ``end-hand`` with these cards in hand would commit (nothing changes)."""
    _require_playing(state)
    event = read_event(state.setup, {
        "type": "end-hand", "went_out": went_out,
        "hands": {p: [c if isinstance(c, str) else c.code for c in cards]
                  for p, cards in hands.items()}})
    assert isinstance(event, EndHand)
    return _tally(state, event)


# --- building states ---------------------------------------------------------------------


def _evolve(state: GameState, changes: Changes) -> GameState:
    # A frozen dataclass copy without re-running __init__: replay speed depends on it.
    new = object.__new__(GameState)
    attrs = new.__dict__
    attrs.update(state.__dict__)
    attrs.update(changes)
    return new


def _board_scores(state: GameState, scores: Mapping[str, int],
                  team_adjust: Mapping[str, int]) -> dict[str, int]:
    boards = {}
    for owner, members in state.setup.members_of.items():
        score = team_adjust.get(owner, 0)
        for member in members:
            score += scores[member]
        boards[owner] = score
    return boards


def _leader(state: GameState, scores: Mapping[str, int],
            team_adjust: Mapping[str, int]) -> str | None:
    """The single highest board at or above the goal, or None (nobody there, or a tie)."""
    goal = state.options.resolved_goal
    if not state.setup.teams:
        best = max(scores.values())
        if best < goal:
            return None
        leaders = [player for player, score in scores.items() if score == best]
        return leaders[0] if len(leaders) == 1 else None
    boards = _board_scores(state, scores, team_adjust)
    best = max(boards.values())
    if best < goal:
        return None
    leaders = [owner for owner, score in boards.items() if score == best]
    return leaders[0] if len(leaders) == 1 else None


def _game_over(changes: Changes, winner: str) -> None:
    changes.update(phase=GAME_OVER, winner=winner, turn=None, after_discard=None,
                   chance=None)


def _score(state: GameState, changes: Changes, deltas: Mapping[str, int]) -> None:
    """Score a play as it happens (Complex, or Toss Rummy with wild_scoring); in Complex the
    first board to reach the goal wins at once."""
    options = state.options
    if not options.scores_as_played:
        return
    scores = dict(state.scores)
    for player, delta in deltas.items():
        scores[player] += delta
    changes["scores"] = scores
    if options.ruleset == COMPLEX:
        winner = _leader(state, scores, state.team_adjust)
        if winner is not None:
            _game_over(changes, winner)


# --- reading events ----------------------------------------------------------------------


def _meld_ref(state: GameState, value: int) -> tuple[int, BoardMeld]:
    for index, meld in enumerate(state.melds):
        if meld.id == value:
            return index, meld
    raise RuleViolation(f"There is no meld {value} on the board.")


# --- rule checks -------------------------------------------------------------------------


def _require_playing(state: GameState) -> None:
    if state.phase != PLAYING:
        if state.hand_no == 0:
            raise RuleViolation("No hand is in play yet: record a new hand and its dealer first.")
        raise RuleViolation(f"Hand {state.hand_no} is over: record a new hand first.")


def _require_turn(state: GameState, player: str) -> None:
    _require_playing(state)
    if state.turn != player:
        raise RuleViolation(f"It is {state.turn}'s turn, not {player}'s.")


def _put_on_board(state: GameState, cards: Sequence[Card],
                  on_board: Mapping[Card, int] | None = None) -> dict[Card, int]:
    """The board's card counts with ``cards`` added; refuses more copies than the decks hold."""
    decks = state.options.decks
    before = state.on_board if on_board is None else on_board
    counts = dict(before)
    for card in cards:
        count = counts.get(card, 0) + 1
        limit = decks * 2 if card.suit is None and card.joker is None else decks
        if count > limit:
            held = "1 deck holds" if decks == 1 else f"{decks} decks hold"
            if before.get(card, 0):
                raise RuleViolation(f"{card} is already on the board and {held} only {limit}.")
            raise RuleViolation(f"{card} appears {count} times but {held} only {limit}.")
        counts[card] = count
    return counts


def _put_captured_aside(state: GameState, cards: Sequence[Card], target: Card,
                        meld_id: int) -> dict[Card, int]:
    """The board with a Toss's cards from hand; a refusal caused by listing the captured card
    says to leave it out (it comes from the meld, not from the hand)."""
    try:
        return _put_on_board(state, cards)
    except RuleViolation as exc:
        if target not in cards:
            raise
        raise RuleViolation(f"Leave the captured {target} out of cards: it comes from meld"
                            f" {meld_id}; list only the cards from your hand.") from exc


def _judge(judge: Callable[..., Verdict], *args: Any, **kwargs: Any) -> Verdict:
    try:
        verdict = judge(*args, **kwargs)
    except TooManyCopiesError as exc:
        raise RuleViolation(f"{exc}.") from exc
    if not verdict.valid:
        raise RuleViolation(_sentence(verdict.reason))
    return verdict


def _sentence(reason: str) -> str:
    return reason if reason.endswith(".") else reason + "."


def _choose_top(verdict: Verdict, cards: Sequence[Card], wanted: Card | None,
                keep: Card | None, added: Sequence[Card] = ()) -> Card:
    """The wanted top card if legal; else the current top if still legal, else a card just
    added that may be top (the end it was laid on), else the first legal top."""
    if wanted is not None:
        if wanted in verdict.top_cards:
            return wanted
        if wanted not in cards:
            raise RuleViolation(f"{wanted} is not in that meld: the top card must be one of"
                                " its cards.")
        ends = " or ".join(c.code for c in verdict.top_cards)
        raise RuleViolation(f"{wanted} cannot be the top card: a sequence shows one of its end"
                            f" cards ({ends}).")
    if keep is not None and keep in verdict.top_cards:
        return keep
    for card in reversed(added):
        if card in verdict.top_cards:
            return card
    return verdict.top_cards[0]


def _chance_after_play(state: GameState) -> DoubleCrossChance | None:
    # The victim's own play, once the turn has reached them, gives up the DoubleCross;
    # the tosser may still meld before discarding.
    chance = state.chance
    return None if chance is not None and chance.ready else chance


# --- the events --------------------------------------------------------------------------


def _new_hand(state: GameState, event: NewHand) -> Changes:
    if state.phase == PLAYING:
        raise RuleViolation(f"Hand {state.hand_no} is still in play: end it before dealing"
                            " the next.")
    setup = state.setup
    expected = state.next_dealer
    if event.dealer is None:
        if expected is None:
            raise EventError('the first new-hand needs "dealer": the player who won the cut')
        dealer = expected
    else:
        dealer = event.dealer
        if expected is not None and dealer != expected:
            why = ("with two players the loser of the last hand deals" if len(setup.players) == 2
                   else "the deal passes to the left")
            raise RuleViolation(f"It is {expected}'s deal for hand {state.hand_no + 1}: {why}.")
    return {
        "phase": PLAYING, "hand_no": state.hand_no + 1, "dealer": dealer,
        "next_dealer": None if len(setup.players) == 2 else setup.next_seat(dealer),
        "turn": setup.next_seat(dealer), "after_discard": None, "melds": (),
        "on_board": {}, "last_play": None, "chance": None, "turn_plays": (),
        "hand_start": state.board_scores(),
    }


def _meld(state: GameState, event: Meld) -> Changes:
    player, cards, wanted = event.player, event.cards, event.top
    _require_turn(state, player)
    on_board = _put_on_board(state, cards)
    verdict = _judge(judge_meld, cards, state.options)
    assert verdict.kind is not None
    meld = BoardMeld(state.next_meld_id, player, cards, verdict.kind,
                     _choose_top(verdict, cards, wanted, None), (player,) * len(cards))
    changes: Changes = {
        "melds": (*state.melds, meld), "next_meld_id": state.next_meld_id + 1,
        "on_board": on_board, "chance": _chance_after_play(state),
        "turn_plays": (*state.turn_plays, PlayPart(meld.id, cards, True)),
        "last_play": {"type": "meld", "player": player, "meld": meld.id,
                      "cards": cards, "points": verdict.points},
    }
    _score(state, changes, {player: verdict.points})
    return changes


def _lay_off(state: GameState, event: LayOff) -> Changes:
    return _add_to_meld(state, event)


def _steal(state: GameState, event: Steal) -> Changes:
    return _add_to_meld(state, event)


def _add_to_meld(state: GameState, event: LayOff | Steal) -> Changes:
    player = event.player
    steal = isinstance(event, Steal)
    if isinstance(event, Steal):
        _require_playing(state)
        cards: tuple[Card, ...] = (event.card,)
        wanted = None
    else:
        _require_turn(state, player)
        cards, wanted = event.cards, event.top
    index, meld = _meld_ref(state, event.meld)
    on_board = _put_on_board(state, cards)
    verdict = _judge(judge_layoff, meld.cards, cards, state.options,
                     own_meld=meld.owner == player)
    assert verdict.kind is not None
    new_cards = meld.cards + cards
    new = BoardMeld(meld.id, meld.owner, new_cards, verdict.kind,
                    _choose_top(verdict, new_cards, wanted, meld.top, cards),
                    meld.credits + (player,) * len(cards))
    changes: Changes = {
        "melds": (*state.melds[:index], new, *state.melds[index + 1:]), "on_board": on_board,
        "last_play": {"type": "steal" if steal else "lay-off", "player": player,
                      "meld": meld.id, "cards": cards, "points": verdict.points},
    }
    if not steal:  # a Steal is out of turn: it changes neither the turn nor the DoubleCross
        changes["chance"] = _chance_after_play(state)
        changes["turn_plays"] = (*state.turn_plays, PlayPart(meld.id, cards, False))
    _score(state, changes, {player: verdict.points})
    return changes


def _exposed_top(remaining: Sequence[Card], captured: Card, meld: BoardMeld,
                 state: GameState) -> Card:
    """The card a Toss exposes as the new top of the victim's meld: in a sequence the
    neighbour of the captured end card, otherwise the last card put down that may be top."""
    if meld.kind == "sequence" and captured.is_natural:
        for card in reversed(remaining):
            if card.is_natural and (abs(card.rank - captured.rank) == 1
                                    or {card.rank, captured.rank} == {1, 13}):
                return card
    if len(remaining) >= 3:
        verdict = judge_meld(remaining, state.options)
        if verdict.valid:
            for card in reversed(remaining):
                if card in verdict.top_cards:
                    return card
    return remaining[-1]


def _toss(state: GameState, event: Toss) -> Changes:
    player, joker, cards, wanted = event.player, event.joker, event.cards, event.top
    _require_turn(state, player)
    index, meld = _meld_ref(state, event.meld)
    options = state.options
    target = meld.top
    if event.captured is not None and event.captured != target:
        raise RuleViolation(f"The top card of meld {meld.id} is {target}, not"
                            f" {event.captured}: a Toss captures the top card (if the"
                            " meld shows another card on top, record its top card first).")
    at = len(meld.cards) - 1 - meld.cards[::-1].index(target)
    victim = meld.credits[at]
    if victim == player:
        raise RuleViolation(f"{target} on meld {meld.id} is your own card: a Toss captures"
                            " another player's top card.")
    _judge(judge_toss, joker, target, options)
    if options.toss_joker == "melded" and joker not in cards:
        raise RuleViolation(f"The tossing {joker} must be one of the new meld's cards at this"
                            " table (option toss_joker: melded): list it in cards.")
    if len(cards) < 2:
        raise RuleViolation(f"The captured {target} must be melded at once with at least two"
                            " cards from your hand.")
    on_board = _put_captured_aside(state, cards, target, meld.id)
    if joker not in cards:  # the tossing joker stays in hand, so it cannot be on the board
        _put_on_board(state, (joker,), on_board)
    new_cards = (target, *cards)
    try:
        verdict = _judge(judge_meld, new_cards, options)
    except RuleViolation as exc:
        raise RuleViolation(f"The captured {target} and {', '.join(c.code for c in cards)}"
                            f" make no meld: {exc.reason}") from exc
    assert verdict.kind is not None
    new_id = state.next_meld_id
    made = BoardMeld(new_id, player, new_cards, verdict.kind,
                     _choose_top(verdict, new_cards, wanted, None),
                     (player,) * len(new_cards))
    melds = list(state.melds)
    remaining = meld.cards[:at] + meld.cards[at + 1:]
    if remaining:
        melds[index] = BoardMeld(meld.id, meld.owner, remaining, meld.kind,
                                 _exposed_top(remaining, target, meld, state),
                                 meld.credits[:at] + meld.credits[at + 1:])
    else:
        del melds[index]
    melds.append(made)
    lost = options.value(target)
    changes: Changes = {
        "melds": tuple(melds), "next_meld_id": new_id + 1,
        "on_board": on_board, "after_discard": victim,
        "chance": DoubleCrossChance(victim, player, new_id, "toss", target),
        "turn_plays": (*state.turn_plays, PlayPart(new_id, new_cards, True)),
        "last_play": {"type": "toss", "player": player, "victim": victim, "meld": new_id,
                      "from_meld": meld.id, "captured": target, "joker": joker,
                      "cards": new_cards, "points": verdict.points,
                      "lost": lost},
    }
    _score(state, changes, {victim: -lost, player: verdict.points})
    return changes


def _double_cross(state: GameState, event: DoubleCross) -> Changes:
    player, jokers = event.player, event.jokers
    _require_playing(state)
    options = state.options
    complex_rules = options.ruleset == COMPLEX
    chance = state.chance
    chain = complex_rules and options.double_cross_back
    if chance is None:
        raise RuleViolation("There is nothing to DoubleCross: a DoubleCross answers a Toss"
                            + (" or a DoubleCross" if chain else "")
                            + " of your cards, before anything else happens"
                            + (" (option double_cross_back is off at this table, so a"
                               " DoubleCross cannot be answered)" if complex_rules and not chain
                               else "")
                            + ".")
    if player != chance.victim:
        raise RuleViolation(f"Only {chance.victim}, who just lost cards to {chance.against},"
                            " may DoubleCross now.")
    if not chance.ready:
        raise RuleViolation(f"{player} DoubleCrosses at the start of their turn, after"
                            f" {chance.against} discards.")
    if not jokers:
        raise RuleViolation("A DoubleCross lays down at least one joker.")
    for card in jokers:
        if not card.is_joker:
            raise RuleViolation(f"{card} is not a joker: a DoubleCross lays down jokers only.")
    if chance.via == "toss" and not any(j.is_boss for j in jokers):
        captured = chance.captured
        if not complex_rules:
            raise RuleViolation("A DoubleCross needs the Boss joker.")
        if captured is None or not captured.is_joker:
            raise RuleViolation(f"The Toss took {captured}, not a joker: only the Boss can"
                                " DoubleCross it.")
    on_board = _put_on_board(state, jokers)
    if state.meld(chance.meld) is None:
        raise RuleViolation(f"Meld {chance.meld} is no longer on the board to take back.")
    melds = list(state.melds)
    deltas: dict[str, int] = {}
    taken: list[Card] = []
    parts: list[PlayPart] = []
    for taking in state.double_cross_takes():
        index, meld = next((i, m) for i, m in enumerate(melds) if m.id == taking.meld)
        credits = list(meld.credits)
        cards = [meld.cards[at] for at in taking.positions]
        for at, card in zip(taking.positions, cards, strict=True):
            deltas[credits[at]] = deltas.get(credits[at], 0) - options.value(card)
            credits[at] = player
        taken.extend(cards)
        parts.append(PlayPart(meld.id, tuple(cards), taking.whole))
        melds[index] = _taken_meld(meld, taking.whole, tuple(credits), player,
                                   jokers if meld.id == chance.meld else (), options)
    lost = -sum(deltas.values())
    gained = sum(options.value(c) for c in (*taken, *jokers))
    deltas[player] = deltas.get(player, 0) + gained
    changes: Changes = {
        "melds": tuple(melds), "on_board": on_board,
        "after_discard": chance.against,
        "chance": DoubleCrossChance(chance.against, player, chance.meld, "double-cross", None)
        if chain else None,
        "turn_plays": (*state.turn_plays, *parts),
        "last_play": {"type": "double-cross", "player": player, "victim": chance.against,
                      "meld": chance.meld, "jokers": jokers, "cards": tuple(taken),
                      "taken": [{"meld": p.meld, "cards": p.cards} for p in parts],
                      "points": gained, "lost": lost},
    }
    _score(state, changes, deltas)
    return changes


def _taken_meld(meld: BoardMeld, whole: bool, credits: tuple[str, ...], player: str,
                jokers: tuple[Card, ...], options: TossOptions) -> BoardMeld:
    """A meld after a DoubleCross: taken whole it belongs to the double-crosser (the Toss meld
    with the jokers laid down, kind and top re-judged while it is a valid meld); lay-offs taken
    from it only change whom their cards score for."""
    if not whole:
        return replace(meld, credits=credits)
    cards = meld.cards + jokers
    kind, top = meld.kind, meld.top
    if jokers:
        verdict = judge_meld(cards, options)
        if verdict.valid and verdict.kind is not None:
            kind = verdict.kind
            top = top if top in verdict.top_cards else verdict.top_cards[0]
    return BoardMeld(meld.id, player, cards, kind, top, credits + (player,) * len(jokers))


def _next_turn(state: GameState, event: NextTurn) -> Changes:
    _require_playing(state)
    assert state.turn is not None
    if event.player is not None:
        turn = event.player
    else:
        turn = state.after_discard or state.setup.next_seat(state.turn)
    chance = state.chance
    if chance is not None:  # the answered play is the turn that ends here
        chance = None if chance.ready or turn != chance.victim else replace(
            chance, ready=True, play=state.turn_plays)
    return {"turn": turn, "after_discard": None, "chance": chance, "turn_plays": ()}


def _tally(state: GameState, event: EndHand) -> TallyResult:
    went_out = event.went_out
    hands = {name: list(cards) for name, cards in event.hands.items()}
    setup = state.setup
    try:
        return tally_hand(state.melded_by(), hands, state.options,
                          dict(setup.members_of) if setup.teams else None, went_out)
    except TooManyCopiesError as exc:
        raise RuleViolation(f"{exc}, counting the board and the hands together.") from exc
    except TallyError as exc:
        raise RuleViolation(_sentence(str(exc))) from exc


def _end_hand(state: GameState, event: EndHand) -> Changes:
    _require_playing(state)
    result = _tally(state, event)
    setup = state.setup
    scores = dict(state.scores)
    for player, line in result.players.items():
        scores[player] += line.net
    boards = _board_scores(state, scores, state.team_adjust)
    deltas = {owner: boards[owner] - state.hand_start.get(owner, 0) for owner in boards}
    went_out = event.went_out
    assert state.dealer is not None
    if len(setup.players) == 2:
        # Two players: the loser of the hand deals next (the one who did not go out, or the
        # lower hand score); an even hand passes the deal to the left.
        first, second = setup.players
        if went_out is not None:
            next_dealer = second if went_out == first else first
        elif deltas[first] != deltas[second]:
            next_dealer = first if deltas[first] < deltas[second] else second
        else:
            next_dealer = setup.next_seat(state.dealer)
    else:
        next_dealer = setup.next_seat(state.dealer)
    changes: Changes = {
        "scores": scores, "phase": HAND_OVER, "turn": None, "after_discard": None,
        "chance": None, "turn_plays": (), "melds": (), "on_board": {},
        "next_dealer": next_dealer,
        "last_play": {"type": "end-hand", "hand_no": state.hand_no, "went_out": went_out},
        "hands": (*state.hands, {"hand_no": state.hand_no, "dealer": state.dealer,
                                  "went_out": went_out, "deltas": deltas,
                                  "tally": result.to_json()}),
    }
    winner = _leader(state, scores, state.team_adjust)
    if winner is not None:
        _game_over(changes, winner)
    return changes


def _adjusted(state: GameState, target: str, points: int) -> Changes:
    setup = state.setup
    scores, team_adjust = state.scores, state.team_adjust
    changes: Changes = {}
    if target in setup.team_of:
        scores = {**scores, target: scores[target] + points}
        changes["scores"] = scores
    else:
        team_adjust = {**team_adjust, target: team_adjust.get(target, 0) + points}
        changes["team_adjust"] = team_adjust
    if state.phase != PLAYING or state.options.ruleset == COMPLEX:
        winner = _leader(state, scores, team_adjust)
        if winner is not None:
            _game_over(changes, winner)
    return changes


def _set_top(state: GameState, event: SetTop) -> Changes:
    """The card a meld shows on top, as the table sees it (the melding player chose it, or the
    keeper records a wrong guess right): one of the meld's possible tops (any card of a set,
    an end card of a sequence; any card of a meld Tosses left under three cards)."""
    _require_playing(state)
    index, meld = _meld_ref(state, event.meld)
    top = event.top
    if top not in meld.cards:
        raise RuleViolation(f"{top} is not in meld {meld.id}: the top card must be one of its"
                            f" cards ({', '.join(c.code for c in meld.cards)}).")
    verdict = judge_meld(meld.cards, state.options) if len(meld.cards) >= 3 else None
    if verdict is not None and verdict.valid and top not in verdict.top_cards:
        ends = " or ".join(c.code for c in verdict.top_cards)
        raise RuleViolation(f"{top} cannot be the top card of meld {meld.id}: a sequence shows"
                            f" one of its end cards ({ends}).")
    if top == meld.top:
        raise RuleViolation(f"{top} is already the top card of meld {meld.id}.")
    melds = list(state.melds)
    melds[index] = replace(meld, top=top)
    return {"melds": tuple(melds)}


def _changes(state: GameState, event: TossEvent) -> Changes:
    """What one of the engine's events changes in the state."""
    match event:
        case NewHand():
            return _new_hand(state, event)
        case Meld():
            return _meld(state, event)
        case LayOff():
            return _lay_off(state, event)
        case Toss():
            return _toss(state, event)
        case DoubleCross():
            return _double_cross(state, event)
        case Steal():
            return _steal(state, event)
        case NextTurn():
            return _next_turn(state, event)
        case EndHand():
            return _end_hand(state, event)
        case SetTop():
            return _set_top(state, event)
    raise AssertionError(f"no rule applies {event!r}")
