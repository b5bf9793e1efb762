"""Which piece was flicked: a lance's start, found from the tracked motion alone.

No record says "flicked" (a camera sees a hand, then a piece sliding). A piece was flicked at
frame ``j`` when it starts moving there (or the tracker, slow to call a slow start, calls it
moving at ``j + 1`` after it already moved ``start_mm`` between ``j - 1`` and ``j``) and
nothing else explains the start:

- no flick while the ball moves ("O lance só poderá ser executado com a bola parada",
  000 REGRA 4 LANCE; Art. 8), nor with no hand over the table (when the source knows);
- contacts pass motion on: following the frame's contacts (and the previous frame's, which a
  source may report late) in time order from the pieces that were moving, every body they
  reach was set going by the lance under way;
- a starter that ends the frame within ``touch_mm`` of a piece that was moving was hit by it
  (a contact reported later than the motion, or not at all);
- a starter in a contact with the ball that starts moving in the same frame was hit by the
  ball when the ball moved toward it more than it moved toward the ball (a ball at rest
  against a button, pushed into another by a piece the lance set going);
- of starters joined by this frame's contacts (directly or through the ball), only the one
  in the earliest contact can be the flick: it hit the others. When that contact is between
  two starters, the striker is the one that moved toward the other (a struck piece moves
  away from its striker, and often faster and further, so distance cannot tell them apart);
- a starter struck by a piece at rest before that is moving by the next frame (flagged so, or
  already ``3 * start_mm`` from where it stood: seen again out of its coach's hand), the striker
  (the contact's ``a``, the faster before the hit) not yet a starter itself, was hit by a
  flick made late in the frame's interval: the striker had moved less than ``start_mm``
  when the frame was taken, the piece it struck was already sliding away. The striker is
  the flick.

Of several unexplained starts in one frame the one that moved most is the flick (the rules
play one lance at a time).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from geometry.pieces import pairwise_gaps
from rules.engine.state import FrameState

__all__ = ["contact_order", "find_flick", "pick_flick", "started_moving"]

BoolArray = NDArray[np.bool_]
#: A striker at rest that moved this many ``start_mm`` by the next frame is moving (a flick's
#: first frame covers centimetres; a resting piece's fits jitter by millimetres).
_WOKE_FACTOR = 3.0
#: ... or this many over the two frames from before the hit (a striker that passed on its
#: speed crawls on; a resting piece's fits jitter by tenths of a millimetre a frame)
_CRAWL_FACTOR = 2.0


def contact_order(row: tuple[int, float, str, str, str]) -> tuple[float, int]:
    """Sort key of contact rows: by time; at the same instant a piece-piece contact first.

    A convention, not a reading of a text: a button meeting an opponent and the ball within
    one physics step touched neither "before" the other, and the simulator lists such a
    contact first; a fixed order keeps the answer independent of when a source reports them.
    """
    return (row[1], 0 if row[4] == "piece-piece" else 1)


def started_moving(
    prev: FrameState, cur: FrameState, ahead: list[FrameState], start_mm: float
) -> tuple[BoolArray, NDArray[np.float64]]:
    """Pieces (not the ball) at rest at ``prev`` that start moving at ``cur``, and how far each
    moved between the two frames."""
    p = cur.pieces
    disp = np.hypot(*(p.xy_mm - prev.pieces.xy_mm).T)
    known = cur.present & prev.present
    new = cur.moving & ~prev.moving
    if ahead:  # the tracker's hysteresis: a slow start is flagged a frame late
        nxt = ahead[0]
        new |= ~cur.moving & nxt.moving & ~prev.moving & (disp >= start_mm)
    return new & known & (p.kind != "ball"), disp


def pick_flick(
    ids: NDArray[np.str_], started: BoolArray, disp: NDArray[np.float64], explained: set[str]
) -> str | None:
    """The unexplained starter that moved most, or None."""
    cands = [i for i in np.flatnonzero(started) if str(ids[i]) not in explained]
    if not cands:
        return None
    return str(ids[max(cands, key=lambda i: float(disp[i]))])


def find_flick(
    prev: FrameState,
    cur: FrameState,
    ahead: list[FrameState],
    contacts: list[tuple[int, float, str, str, str]],
    start_mm: float = 3.0,
    ignore: set[str] | None = None,
    touch_mm: float = 3.0,
) -> str | None:
    """The piece flicked at ``cur`` (see the module docstring), or None.

    ``contacts`` are the ``(frame, t, a, b, kind)`` rows of ``cur``'s interval (and the one
    before); ``ignore`` names pieces already known to be moving under a lance (a start
    flagged a frame late).
    """
    bi = cur.ball_index
    if prev.moving[bi] and prev.present[bi]:
        return None
    if cur.hands_over_table is False and prev.hands_over_table is False:
        return None
    started, disp = started_moving(prev, cur, ahead, start_mm)
    if not started.any() and not any(c[4] == "piece-piece" for c in contacts):
        return None
    ids = cur.pieces.ids
    explained: set[str] = set(ignore or ())
    # Motion passed on by contacts, from the pieces already moving; starters joined by contacts.
    movers = {str(i) for i in ids[prev.moving & prev.present]}
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    ordered = sorted(contacts, key=contact_order)
    for _, _, a, b, kind in ordered:
        if kind not in ("piece-ball", "piece-piece"):
            continue
        if a in movers or b in movers:
            movers |= {a, b}
        parent[root(a)] = root(b)
    explained |= movers
    index = {str(pid): i for i, pid in enumerate(ids)}
    if ahead:
        nxt = ahead[0]
        for _, _, a, b, kind in ordered:
            ia, ib = index.get(a), index.get(b)
            if kind != "piece-piece" or ia is None or ib is None or a in movers:
                continue
            # moving by the next frame: flagged so, or already far from where it stood (a
            # piece flicked from under its coach's hand is seen again a frame or two later, a
            # few centimetres on, before the tracker's hysteresis calls it moving)
            # ... or crawling on from before its hit: a flicked piece that gave nearly all its
            # speed to the one it struck at once (nacional's ten minutes, seed 35, frame 10451
            # of the twenty-ninth stop's render: A9 3 mm from B2, 3 mm a frame after the hit,
            # B2 off at 15; B2's start was read as B's lance and the foul called against B)
            woke = (
                nxt.moving[ia]
                or (
                    nxt.present[ia]
                    and float(np.hypot(*(nxt.pieces.xy_mm[ia] - cur.pieces.xy_mm[ia])))
                    >= _WOKE_FACTOR * start_mm
                )
                or (
                    nxt.present[ia]
                    and prev.present[ia]
                    and float(np.hypot(*(nxt.pieces.xy_mm[ia] - prev.pieces.xy_mm[ia])))
                    >= _CRAWL_FACTOR * start_mm
                )
            )
            # the struck piece: flagged starting, or already away from its place (struck from
            # under a hand, 000 REGRA 12: gaucha's ten minutes, frame 10362, a foul)
            struck = started[ib] or (
                not prev.moving[ib] and cur.present[ib] and prev.present[ib]
                and float(disp[ib]) >= start_mm
            )  # fmt: skip
            if struck and not started[ia] and woke and not prev.moving[ia]:
                if cur.present[ia] and prev.present[ia]:
                    started[ia] = True
                    explained.add(b)
                    started[ib] = True  # (explained: moved by the hit)
    cand = np.flatnonzero(started)
    starters = {str(ids[i]) for i in cand}
    groups: dict[str, list[str]] = {}
    for pid in starters:
        groups.setdefault(root(pid), []).append(pid)
    xy0 = prev.pieces.xy_mm
    for members in groups.values():
        if len(members) < 2:
            continue
        striker = None
        for _, _, a, b, kind in ordered:
            if kind in ("piece-ball", "piece-piece") and (a in members or b in members):
                if a in starters and b in starters:
                    ia, ib = index[a], index[b]
                    da = float((cur.pieces.xy_mm[ia] - xy0[ia]) @ (xy0[ib] - xy0[ia]))
                    db = float((cur.pieces.xy_mm[ib] - xy0[ib]) @ (xy0[ia] - xy0[ib]))
                    striker = a if da >= db else b
                else:
                    striker = a if a in starters else b
                break
        explained |= {m for m in members if m != striker}
    if prev.present[bi] and cur.present[bi] and cur.moving[bi]:
        b0, b1 = prev.ball_xy_mm, cur.ball_xy_mm
        for _, _, a, b, kind in ordered:
            pid = a if b == "ball" else b
            if kind != "piece-ball" or pid not in starters:
                continue
            i = index[pid]
            toward = float((cur.pieces.xy_mm[i] - xy0[i]) @ (b0 - xy0[i]))
            if float((b1 - b0) @ (xy0[i] - b0)) > toward:
                explained.add(pid)
    moving_before = np.flatnonzero(prev.moving & prev.present)
    if len(moving_before):
        gaps = pairwise_gaps(cur.pieces.select(cand), cur.pieces.select(moving_before))
        explained |= {str(ids[cand[k]]) for k in np.flatnonzero((gaps <= touch_mm).any(axis=1))}
    return pick_flick(ids, started, disp, explained)
