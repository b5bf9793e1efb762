"""The table's physics on pymunk 7: rails, posts, nets, buttons, goalkeepers and the ball.

Units are the table frame's millimetres and seconds (INTERFACES.md); masses are grams, so
impulses are g mm/s. The world advances by a fixed step of ``DT_S = 1/480 s``: at the highest
flick speed (``MAX_FLICK_MM_S = 3000``) a button moves 6.25 mm a step and the ball it launches
(at most ~1.7 x the button's speed) ~10.6 mm, less than the thinnest obstacle it can meet
(ball radius 5 mm + rail half-thickness 10 mm, + post radius 2 mm + net half-thickness 4 mm),
so nothing tunnels (tested). Runs are deterministic: same inputs, same states.

Table friction
--------------
Sliding friction is a viscous damping of every free body (pymunk's ``Space.damping``, which is
~38x cheaper than a per-body Python friction callback) plus a static-friction stop: a body whose
speed falls below ``STOP_MM_S`` is stopped. The speed then falls linearly with the distance
travelled, ``dv/ds = -1/tau``, so a flick at speed ``v0`` slides

    distance_mm = tau_s * (v0_mm_s - STOP_MM_S)          (tau_s = BUTTON_TAU_S = 0.30 s)

e.g. 1000 mm/s -> 291 mm, 1500 mm/s -> 441 mm, 2000 mm/s -> 591 mm: a typical flick
(0.7-2 m/s) slides 20-60 cm. The ball rolls (``BALL_TAU_S = 0.45 s``): a ball struck to
``v`` rolls ``0.45 * (v - 30)`` mm. :func:`slide_distance_mm` and :func:`speed_for_distance`
give the relation and its inverse; :class:`TableWorld` applies the ball's own damping through
its body's velocity function.

Contacts
--------
Every first contact between two shapes is logged as :class:`simulator.state.Contact` with its
time, bodies and impulse, and so is a push between two shapes already touching at rest (a
button flicked while it rests against an opponent or the ball strikes it with no first
contact: pymunk keeps their arbiter alive, so only the impulse rising from nothing tells;
gaucha's ten minutes, seed 31, frame 11965: B7 flicked from against A11 pushed it away at
210 mm/s, a foul, 001 Art. XXIV, that the log lacked): ``piece-ball``, ``piece-piece``,
``piece-rail``, ``piece-post``, ``piece-net``, ``ball-rail``, ``ball-post``, ``ball-net``. The
piece is ``a``; the other body is ``b`` (``"ball"``, a piece id, ``"rail"``, ``"post"`` or
``"net"``). Goalkeepers are kinematic boxes moved only by :meth:`TableWorld.place` (000 REGRA 4:
the goalkeeper is placed by hand).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pymunk
from numpy.typing import NDArray

from geometry.field import SIDES, FieldModel
from geometry.pieces import Pieces
from geometry.tablespec import TableSpec
from simulator.state import Contact

__all__ = [
    "BALL_TAU_S",
    "BUTTON_TAU_S",
    "DT_S",
    "MAX_FLICK_MM_S",
    "STOP_MM_S",
    "TableWorld",
    "slide_distance_mm",
    "speed_for_distance",
]

DT_S = 1.0 / 480.0
BUTTON_TAU_S = 0.30
BALL_TAU_S = 0.45
STOP_MM_S = 30.0
MAX_FLICK_MM_S = 3000.0

BUTTON_MASS_G = 4.5
BALL_MASS_G = 0.6
PIECE_ELASTICITY = math.sqrt(0.8)  # pymunk multiplies the two shapes': 0.8 between buttons
RAIL_ELASTICITY = 0.6
POST_ELASTICITY = 0.7
NET_ELASTICITY = 0.05  # the net absorbs: a ball in the goal stays there
RAIL_HALF_MM = 10.0
NET_HALF_MM = 4.0

_BUTTON, _BALL, _KEEPER, _RAIL, _POST, _NET = 1, 2, 3, 4, 5, 6
_STATIC_NAME = {_RAIL: "rail", _POST: "post", _NET: "net"}
_NO_COLLISION = pymunk.ShapeFilter(categories=0, mask=0)
# a pair touching at rest (no impulse between them on the step before) whose impulse rises
# over this has been pushed: a new contact. Bodies settling against each other exchange
# under 10 g mm/s; a push from a flick thousands (a graze's first contact: ~75).
_PUSH_G_MM_S = 20.0
_RESTING_G_MM_S = 1.0

FloatArray = NDArray[np.float64]


def slide_distance_mm(speed_mm_s: float | FloatArray, tau_s: float = BUTTON_TAU_S) -> FloatArray:
    """Distance a free body launched at ``speed_mm_s`` slides before it stops (see module doc)."""
    v = np.asarray(speed_mm_s, dtype=float)
    return np.asarray(tau_s * np.maximum(v - STOP_MM_S, 0.0))


def speed_for_distance(distance_mm: float, tau_s: float = BUTTON_TAU_S) -> float:
    """Launch speed that slides ``distance_mm`` (inverse of :func:`slide_distance_mm`)."""
    return float(max(distance_mm, 0.0) / tau_s + STOP_MM_S)


@dataclass
class _Body:
    index: int
    body: pymunk.Body
    shape: pymunk.Shape


class TableWorld:
    """A pymunk space holding one table and its pieces.

    Parameters
    ----------
    table : the table spec (rails at ``rail_margin``, posts, nets of ``goal_depth``).
    roster : the pieces (ids, teams, kinds, sizes, heights) and their initial positions.
    button_mass_g, ball_mass_g : masses of a button and of the ball.
    """

    def __init__(
        self,
        table: TableSpec,
        roster: Pieces,
        button_mass_g: float = BUTTON_MASS_G,
        ball_mass_g: float = BALL_MASS_G,
    ) -> None:
        self.table = table
        self.field = FieldModel(table)
        self.roster = roster
        self.t = 0.0
        self.contacts: list[Contact] = []
        self.flicks: list[tuple[float, str, float, float]] = []  # (t, id, direction, speed)
        self._steps = 0
        self.space = pymunk.Space()
        self.space.damping = math.exp(-1.0 / BUTTON_TAU_S)  # fraction of velocity kept per s
        self._bodies: dict[str, _Body] = {}
        self._by_shape: dict[pymunk.Shape, str] = {}
        self._free: list[_Body] = []
        self._carried: set[str] = set()
        # each touching pair's (step, impulse) at its last post-solve
        self._pressed: dict[tuple[int, int], tuple[int, float]] = {}
        self._build_table()
        for i in range(len(roster)):
            self._add_piece(i)
        for a, b in ((_BUTTON, _BALL), (_KEEPER, _BALL), (_BUTTON, _BUTTON), (_BUTTON, _KEEPER)):
            self.space.on_collision(a, b, post_solve=self._on_contact)
        for moving in (_BUTTON, _BALL):
            for static in (_RAIL, _POST, _NET):
                self.space.on_collision(moving, static, post_solve=self._on_contact)

    # ------------------------------------------------------------------ building
    def _build_table(self) -> None:
        sb = self.space.static_body
        x0, y0, x1, y1 = self.table.rail_box
        h = RAIL_HALF_MM
        corners = [(x0 - h, y0 - h), (x1 + h, y0 - h), (x1 + h, y1 + h), (x0 - h, y1 + h)]
        for k in range(4):
            seg = pymunk.Segment(sb, corners[k], corners[(k + 1) % 4], h)
            self._static(seg, _RAIL, RAIL_ELASTICITY)
        r_post = self.table.post_diameter / 2.0
        depth = self.table.goal_depth
        for side in SIDES:
            posts = self.field.post_centres(side)
            s = -1.0 if side == "left" else 1.0
            for px, py in posts:
                self._static(pymunk.Circle(sb, r_post, (px, py)), _POST, POST_ELASTICITY)
            # Net: two side walls from behind the posts and a back wall, inner faces at the goal
            # mouth's edges so the ball that passes the posts is caught inside.
            gy = self.table.goal_width / 2.0 + NET_HALF_MM
            xb = s * (self.field.hl + depth + NET_HALF_MM)
            xp = posts[0, 0]
            for a, b in (((xp, -gy), (xb, -gy)), ((xp, gy), (xb, gy)), ((xb, -gy), (xb, gy))):
                self._static(pymunk.Segment(sb, a, b, NET_HALF_MM), _NET, NET_ELASTICITY)

    def _static(self, shape: pymunk.Shape, ctype: int, elasticity: float) -> None:
        shape.collision_type = ctype
        shape.elasticity = elasticity
        shape.friction = 0.2
        self.space.add(shape)

    def _add_piece(self, i: int) -> None:
        p = self.roster
        pid, kind = str(p.ids[i]), str(p.kind[i])
        x, y = (float(v) for v in p.xy_mm[i])
        shape: pymunk.Shape
        if kind == "goalkeeper":
            body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
            length, width = (float(v) for v in p.size_mm[i])
            shape = pymunk.Poly.create_box(body, (length, width))
            shape.collision_type = _KEEPER
            body.angle = float(p.angle_rad[i])
        else:
            mass = BALL_MASS_G if kind == "ball" else BUTTON_MASS_G
            body = pymunk.Body(mass, math.inf)  # discs slide without spinning
            shape = pymunk.Circle(body, float(p.size_mm[i, 0]) / 2.0)
            shape.collision_type = _BALL if kind == "ball" else _BUTTON
            if kind == "ball":
                body.velocity_func = _ball_velocity
        shape.elasticity = PIECE_ELASTICITY
        shape.friction = 0.0  # line-of-centres impulses: a hit sends the ball along it
        body.position = (x, y)
        self.space.add(body, shape)
        entry = _Body(i, body, shape)
        self._bodies[pid] = entry
        self._by_shape[shape] = pid
        if kind != "goalkeeper":
            self._free.append(entry)

    # ------------------------------------------------------------------ contacts
    def _on_contact(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        sa, sb = arbiter.shapes
        impulse = float(arbiter.total_impulse.length)
        key = (id(sa), id(sb)) if id(sa) < id(sb) else (id(sb), id(sa))
        before = self._pressed.get(key)
        self._pressed[key] = (self._steps, impulse)
        if not arbiter.is_first_contact:
            resting = before is None or before[0] < self._steps - 1 or before[1] < _RESTING_G_MM_S
            if not (resting and impulse > _PUSH_G_MM_S):
                return
        names = []
        kinds = []
        for s in (sa, sb):
            if s.collision_type in _STATIC_NAME:
                names.append(_STATIC_NAME[s.collision_type])
                kinds.append(_STATIC_NAME[s.collision_type])
            else:
                names.append(self._by_shape[s])
                kinds.append("ball" if s.collision_type == _BALL else "piece")
        # Order: a piece first, then the ball or the static body.
        rank = {"piece": 0, "ball": 1}
        a, b = sorted(range(2), key=lambda k: rank.get(kinds[k], 2))
        kind = f"{kinds[a]}-{kinds[b]}"
        self.contacts.append(Contact(self.t + DT_S, names[a], names[b], kind, impulse))

    # ------------------------------------------------------------------ API
    def flick(self, piece_id: str, direction_rad: float, speed_mm_s: float) -> None:
        """Launch a button (or the ball) from rest in ``direction_rad`` at ``speed_mm_s``."""
        entry = self._bodies[piece_id]
        if entry.body.body_type != pymunk.Body.DYNAMIC:
            raise ValueError(f"flick: '{piece_id}' is a goalkeeper; goalkeepers are placed")
        speed = float(min(max(speed_mm_s, 0.0), MAX_FLICK_MM_S))
        entry.body.velocity = (speed * math.cos(direction_rad), speed * math.sin(direction_rad))
        self.flicks.append((self.t, piece_id, float(direction_rad), speed))

    def place(self, piece_id: str, xy_mm: Sequence[float], angle_rad: float | None = None) -> None:
        """Put a piece at ``xy_mm`` at rest (by hand); a goalkeeper may also be turned."""
        entry = self._bodies[piece_id]
        entry.body.position = (float(xy_mm[0]), float(xy_mm[1]))
        if entry.body.body_type == pymunk.Body.DYNAMIC:
            entry.body.velocity = (0.0, 0.0)
        if angle_rad is not None and entry.body.body_type == pymunk.Body.KINEMATIC:
            entry.body.angle = float(angle_rad)
        self.space.reindex_shapes_for_body(entry.body)

    def lift(self, piece_id: str, lifted: bool = True) -> None:
        """Lift a piece off the table (a hand carries it): it collides with nothing meanwhile."""
        entry = self._bodies[piece_id]
        if lifted:
            entry.shape.filter = _NO_COLLISION
            self._carried.add(piece_id)
        else:
            entry.shape.filter = pymunk.ShapeFilter()
            self._carried.discard(piece_id)
        if entry.body.body_type == pymunk.Body.DYNAMIC:
            entry.body.velocity = (0.0, 0.0)

    def step(self) -> None:
        """One fixed step of ``DT_S``, then the static-friction stop."""
        self.space.step(DT_S)
        self._steps += 1
        self.t = self._steps * DT_S
        for e in self._free:
            v = e.body.velocity
            if v.x != 0.0 or v.y != 0.0:
                if v.x * v.x + v.y * v.y < STOP_MM_S * STOP_MM_S:
                    e.body.velocity = (0.0, 0.0)

    def step_until(self, t: float) -> None:
        """Advance by whole steps until ``self.t`` reaches ``t`` (to within half a step)."""
        while self.t + DT_S / 2.0 < t:
            self.step()

    def speeds_mm_s(self) -> FloatArray:
        return np.array([self._bodies[str(i)].body.velocity.length for i in self.roster.ids])

    def state(self) -> tuple[Pieces, FloatArray]:
        """The pieces at ``self.t`` (footprint centres, keeper angles) and their velocities."""
        n = len(self.roster)
        xy = np.empty((n, 2))
        vel = np.zeros((n, 2))
        angle = np.zeros(n)
        for e in self._bodies.values():
            b = e.body
            xy[e.index] = (b.position.x, b.position.y)
            if b.body_type == pymunk.Body.DYNAMIC:
                vel[e.index] = (b.velocity.x, b.velocity.y)
            else:
                angle[e.index] = b.angle
        p = self.roster
        pieces = Pieces(p.ids, p.team, p.kind, xy, p.size_mm, angle, p.height_mm)
        return pieces, vel

    def position(self, piece_id: str) -> tuple[float, float]:
        pos = self._bodies[piece_id].body.position
        return (float(pos.x), float(pos.y))

    def all_stopped(self) -> bool:
        """No free body is moving."""
        return all(e.body.velocity.length == 0.0 for e in self._free)


def _ball_velocity(body: pymunk.Body, gravity: pymunk.Vec2d, damping: float, dt: float) -> None:
    """The ball rolls: its own, lighter damping instead of the buttons' sliding one."""
    pymunk.Body.update_velocity(body, gravity, math.exp(-dt / BALL_TAU_S), dt)
