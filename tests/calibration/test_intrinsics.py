"""Intrinsics from chessboard and ChArUco images rendered through a known distorted lens."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera import Camera, load_camera
from calibration.intrinsics import IntrinsicsError, calibrate_intrinsics

SIZE = (640, 480)
TRUE_K = np.array([[560.0, 0.0, 322.0], [0.0, 560.0, 236.5], [0.0, 0.0, 1.0]])
TRUE_DIST = np.array([-0.22, 0.05, 0.0, 0.0, 0.0])
TRUE = Camera(SIZE, TRUE_K, TRUE_DIST)
PX_PER_MM = 4.0  # texture resolution


def _texture(board_img: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(board_img, (0, 0), 0.7)


def chessboard_texture(squares: tuple[int, int], square_mm: float) -> np.ndarray:
    """A white-bordered chessboard, ``PX_PER_MM`` texture pixels a millimetre."""
    s = int(square_mm * PX_PER_MM)
    cols, rows = squares
    img = np.full(((rows + 2) * s, (cols + 2) * s), 255, np.uint8)
    for r in range(rows):
        for c in range(cols):
            if (r + c) % 2 == 0:
                img[(r + 1) * s : (r + 2) * s, (c + 1) * s : (c + 2) * s] = 0
    return _texture(img)


def render_board(texture: np.ndarray, origin_mm: float, pose: Camera, seed: int) -> np.ndarray:
    """The board seen by ``pose``; board (x, y) mm is texture pixel (x + origin, y + origin) *
    ``PX_PER_MM`` counted from the *bottom* left, so a camera above the board sees the print
    as printed (not mirrored)."""
    texture = texture[::-1]
    w, h = pose.image_size
    # The pixel -> board map is smooth: computed every 4 px and interpolated (error < 0.01 px).
    step = 4
    gu, gv = np.arange(0, w + step, step, dtype=float), np.arange(0, h + step, step, dtype=float)
    uu, vv = np.meshgrid(gu, gv)
    xy = pose.image_to_table(np.column_stack([uu.ravel(), vv.ravel()]), 0.0)
    tex = ((np.nan_to_num(xy, nan=-1e6) + origin_mm) * PX_PER_MM - 0.5).astype(np.float32)
    m = np.array([[1.0 / step, 0, 0], [0, 1.0 / step, 0]])
    maps = [
        cv2.warpAffine(
            tex[:, i].reshape(uu.shape), m, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        )
        for i in (0, 1)
    ]
    grey = cv2.remap(texture, maps[0], maps[1], cv2.INTER_LINEAR, borderValue=128).astype(
        np.float32
    )
    rng = np.random.default_rng(seed)
    grey = 40 + 0.7 * grey + rng.normal(0.0, 2.0, grey.shape)  # contrast, noise
    return cv2.cvtColor(np.clip(grey, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)


def poses(
    n: int, centre_mm: tuple[float, float], seed: int, corners_mm: np.ndarray | None = None
) -> list[Camera]:
    """Seeded views of a board: 260-400 mm away, tilted 20-50 deg, reaching the corners."""
    rng = np.random.default_rng(seed)
    cx, cy = centre_mm
    if corners_mm is None:  # the whole board, with a margin
        corners_mm = np.array([[x, y, 0.0] for x in (-10, 2 * cx + 10) for y in (-10, 2 * cy + 10)])
    out: list[Camera] = []
    while len(out) < n:
        tilt = math.radians(rng.uniform(20.0, 50.0))
        az = rng.uniform(0.0, 2 * math.pi)
        d = rng.uniform(260.0, 400.0)
        target = np.array([*(np.asarray(centre_mm) + rng.uniform(-70, 70, 2)), 0.0])
        pos = target + d * np.array(
            [math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), math.cos(tilt)]
        )
        up = (math.cos(az + 1.0), math.sin(az + 1.0), 0.0)
        cam = Camera.look_at(pos, target, 60.0, SIZE, up=up)
        cam = Camera(SIZE, TRUE_K, TRUE_DIST, cam.rvec, cam.tvec)
        uv = cam(corners_mm)
        if ((uv >= 5) & (uv <= np.array(SIZE) - 6)).all():  # the board wholly in the picture
            out.append(cam)
    return out


@pytest.fixture(scope="module")
def chessboards(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("chess")
    tex = chessboard_texture((10, 7), 20.0)  # 9 x 6 inner corners, 20 mm squares
    paths = []
    for k, pose in enumerate(poses(9, (100.0, 70.0), seed=1)):
        path = folder / f"board{k:02d}.png"
        cv2.imwrite(str(path), render_board(tex, 20.0, pose, seed=k))
        paths.append(path)
    return paths


def test_chessboard_intrinsics_within_one_percent(chessboards: list[Path]) -> None:
    intr = calibrate_intrinsics(chessboards, board=(9, 6), square_mm=20.0)
    assert intr.image_size == SIZE
    assert len(intr.images_used) == 9
    assert intr.rms_px < 0.3
    np.testing.assert_allclose(intr.K[[0, 1], [0, 1]], TRUE_K[[0, 1], [0, 1]], rtol=0.01)
    np.testing.assert_allclose(intr.K[:2, 2], TRUE_K[:2, 2], atol=3.0)
    # The lens: rays through pixels all over the image agree to 0.2 degrees.
    rng = np.random.default_rng(0)
    uv = rng.uniform([0, 0], SIZE, (200, 2))
    rays = [np.column_stack([c.undistort(uv), np.ones(200)]) for c in (intr.camera(), TRUE)]
    cos = (
        (rays[0] * rays[1]).sum(1)
        / np.linalg.norm(rays[0], axis=1)
        / np.linalg.norm(rays[1], axis=1)
    )
    assert np.degrees(np.arccos(np.minimum(cos, 1.0))).max() < 0.2


def test_intrinsics_document_is_a_camera_file(chessboards: list[Path], tmp_path: Path) -> None:
    intr = calibrate_intrinsics(chessboards[:3], board=(9, 6), square_mm=20.0)
    out = tmp_path / "intrinsics.json"
    intr.save(out)
    doc = json.loads(out.read_text())
    assert doc["format"] == "camera/1" and doc["intrinsics_only"] is True
    assert doc["pattern"] == "chessboard 9x6 inner corners"
    cam = load_camera(out)
    np.testing.assert_allclose(cam.K, intr.K)
    assert cam.rms_px == pytest.approx(intr.rms_px)


def test_charuco_intrinsics_within_one_percent(tmp_path: Path) -> None:
    board = cv2.aruco.CharucoBoard(
        (7, 5), 30.0, 22.0, cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_5X5_100)
    )
    s = int(30.0 * PX_PER_MM)
    tex = cv2.copyMakeBorder(
        board.generateImage((7 * s, 5 * s)),
        s // 2,
        s // 2,
        s // 2,
        s // 2,
        cv2.BORDER_CONSTANT,
        value=255,
    )
    images = [
        (f"charuco{k}.png", render_board(_texture(tex), 15.0, pose, seed=k))
        for k, pose in enumerate(poses(7, (105.0, 75.0), seed=2))
    ]
    intr = calibrate_intrinsics(
        images, pattern="charuco", board=(7, 5), square_mm=30.0, marker_mm=22.0
    )
    assert len(intr.images_used) == 7
    np.testing.assert_allclose(intr.K[[0, 1], [0, 1]], TRUE_K[[0, 1], [0, 1]], rtol=0.01)
    assert intr.dist[0] == pytest.approx(TRUE_DIST[0], abs=0.03)


def test_errors_name_the_file(chessboards: list[Path], tmp_path: Path) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 90, np.uint8))
    with pytest.raises(IntrinsicsError, match=r"blank\.png: no chessboard 9x6 inner corners"):
        calibrate_intrinsics([blank, *chessboards[:3]], board=(9, 6), square_mm=20.0)
    # Not strict: the blank is skipped, but one board is not enough.
    with pytest.raises(
        IntrinsicsError, match=r"found in 1 image\(s\) \(.*board00.png\).*at least 3"
    ):
        calibrate_intrinsics([blank, chessboards[0]], strict=False, board=(9, 6), square_mm=20.0)
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), np.zeros((240, 320, 3), np.uint8))
    with pytest.raises(IntrinsicsError, match=r"small\.png: image is 320x240 but .*640x480"):
        calibrate_intrinsics([chessboards[0], small])
    with pytest.raises(IntrinsicsError, match=r"nothing\.png: does not exist"):
        calibrate_intrinsics([tmp_path / "nothing.png"])
    notimg = tmp_path / "notes.png"
    notimg.write_text("hello")
    with pytest.raises(IntrinsicsError, match=r"notes\.png: is not an image"):
        calibrate_intrinsics([notimg])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"pattern": "circles"}, "pattern: expected one of"),
        ({"board": (1, 6)}, "board: expected at least 2 x 2"),
        ({"square_mm": 0.0}, "square_mm"),
        ({"pattern": "charuco", "dictionary": "DICT_NOPE"}, "unknown ArUco dictionary"),
        ({"pattern": "charuco", "marker_mm": 40.0}, "marker_mm"),
    ],
)
def test_bad_parameters(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(IntrinsicsError, match=match):
        calibrate_intrinsics([("x.png", np.zeros((48, 64, 3), np.uint8))], **kwargs)  # type: ignore[arg-type]
