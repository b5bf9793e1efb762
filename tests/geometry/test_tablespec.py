"""Table specs: presets carry their articles; bad files fail with the key's name."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

import pytest

from geometry.tablespec import TableSpecError, list_tables, load_table, table_from_dict

PRESETS = ["brasileira", "nacional", "gaucha-min", "gaucha-max", "paulista", "mesa-posta"]


def _raw(name: str) -> dict:
    text = (resources.files("geometry") / "tables" / f"{name}.toml").read_text("utf-8")
    return tomllib.loads(text)


def test_every_rule_text_has_a_preset() -> None:
    assert sorted(t.name for t in list_tables()) == sorted(PRESETS)


@pytest.mark.parametrize("name", PRESETS)
def test_preset_values_cite_an_article(name: str) -> None:
    t = load_table(name)
    raw = _raw(name)
    numeric = [k for k in raw if k not in ("name", "rules", "description", "sources")]
    missing = [k for k in numeric if k not in t.sources]
    assert not missing, f"{name}: values without a source: {missing}"


@pytest.mark.parametrize(
    ("name", "length", "width", "goal", "area", "mark"),
    [
        # 000 REGRA 1: 2000 x 1400 max, goal 146, grande área 820 x 330, marca a 220
        ("brasileira", 2000, 1400, 146, (820, 330), 220),
        # 000 Art. 2: 2 x 1,40 m, área grande 72 x 30 cm, pênalti a 16 cm; Art. 1 postes a 15 cm
        ("nacional", 2000, 1400, 150, (720, 300), 160),
        # 001 Art. IV-VI: min 1,40 x 1,00, max 1,60 x 1,20; área 500 x 250; goleira 130
        ("gaucha-min", 1400, 1000, 130, (500, 250), 120),
        ("gaucha-max", 1600, 1200, 130, (500, 250), 120),
    ],
)
def test_preset_dimensions_match_the_texts(name, length, width, goal, area, mark) -> None:
    t = load_table(name)
    assert (t.field_length, t.field_width, t.goal_width) == (length, width, goal)
    assert (t.penalty_area.width, t.penalty_area.depth) == area
    assert t.penalty_mark_distance == mark


def test_gaucha_arc_is_centred_off_the_penalty_mark() -> None:
    # 001 Art. V h: "meia lua ... 120 mm de raio a partir de 170 da linha de fundo"
    t = load_table("gaucha-max")
    assert t.arc_center_distance == 170 and t.penalty_mark_distance == 120


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colour": "green"}, "unknown key 'colour'"),
        ({"field_length": None}, "missing key 'field_length'"),
        ({"goal_width": -146.0}, "key 'goal_width' must be positive"),
        ({"goal_width": 0}, "key 'goal_width' must be positive"),
        ({"goal_width": "wide"}, "key 'goal_width' must be a number"),
        ({"penalty_area": {"width": 1500.0, "depth": 330.0}}, "key 'penalty_area.width'"),
        ({"penalty_area": {"width": 820.0}}, "missing key 'penalty_area.depth'"),
        (
            {"penalty_area": {"width": 820.0, "depth": 330.0, "x": 1}},
            "unknown key 'penalty_area.x'",
        ),
        ({"goal_width": 400.0}, "key 'goal_width'"),  # wider than the goal area
        ({"goal_area": {"width": 900.0, "depth": 110.0}}, "key 'goal_area.width'"),
        ({"field_width": 2100.0}, "key 'field_width'"),
        ({"penalty_mark_distance": 400.0}, "key 'penalty_mark_distance'"),
        ({"center_circle_radius": 800.0}, "key 'center_circle_radius'"),
        ({"line_width": True}, "key 'line_width' must be a number"),
    ],
)
def test_bad_values_name_the_key(change: dict, message: str) -> None:
    data = _raw("brasileira")
    for k, v in change.items():
        if v is None:
            del data[k]
        else:
            data[k] = v
    with pytest.raises(TableSpecError, match=message.replace("(", r"\(").replace(".", r"\.")):
        table_from_dict(data, where="t.toml")


def test_file_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("field_length = [", "utf-8")
    with pytest.raises(TableSpecError, match=r"bad\.toml: invalid TOML"):
        load_table(bad)
    with pytest.raises(TableSpecError, match="unknown table 'wembley'"):
        load_table("wembley")
    with pytest.raises(TableSpecError, match=r"missing\.toml: cannot read"):
        load_table(tmp_path / "missing.toml")


def test_custom_table_file_loads(tmp_path: Path) -> None:
    text = (resources.files("geometry") / "tables" / "gaucha-min.toml").read_text("utf-8")
    path = tmp_path / "club.toml"
    path.write_text(text.replace('name = "gaucha-min"', 'name = "club"'), "utf-8")
    t = load_table(path)
    assert t.name == "club" and t.field_length == 1400
