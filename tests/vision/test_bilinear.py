"""vision/bilinear.py: OpenCV's bilinear remap, value for value, without its thread pool."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.bilinear import bilinear


def _remap(img: np.ndarray, uv: np.ndarray) -> np.ndarray:
    m = uv.astype(np.float32).reshape(-1, 1, 2)
    out = cv2.remap(img, m[:, :, 0], m[:, :, 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out, np.float32).reshape(len(uv), -1)


def _case(seed: int, channels: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random non-square image (8-bit and float) and points inside, on the border, beyond
    it, on whole pixels and on halves (rounding ties)."""
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(2, 40)), int(rng.integers(41, 90))
    u8 = rng.integers(0, 256, (h, w, channels), dtype=np.uint8)
    f32 = (rng.random((h, w, channels)) * 300.0 - 20.0).astype(np.float32)
    uv = np.column_stack([rng.uniform(-3, w + 3, 300), rng.uniform(-3, h + 3, 300)])
    uv[:60] = np.round(uv[:60] * 64.0) / 64.0
    uv[60:90] = np.round(uv[60:90])
    uv[90:100] = np.round(uv[90:100]) + 0.5
    return u8, f32, uv


@pytest.mark.skipif(
    int(cv2.__version__.split(".")[0]) < 5,
    reason="OpenCV 4 rounds the coordinates to 1/32 pixel first",
)
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("channels", [1, 3])
def test_it_is_opencvs_remap_bit_for_bit(seed: int, channels: int) -> None:
    u8, f32, uv = _case(seed, channels)
    for img in (u8, f32):
        im = img if channels == 3 else img[:, :, 0]
        np.testing.assert_array_equal(bilinear(im, uv), _remap(im, uv))


@pytest.mark.parametrize("seed", range(6))
def test_it_interpolates_the_four_neighbours(seed: int) -> None:
    """Against the textbook formula in double precision: single precision's rounding for a
    float image, the nearest integer (or a tie's either side) for an 8-bit one."""
    u8, f32, uv = _case(seed, 3)
    h, w = u8.shape[:2]
    p = np.column_stack([np.clip(uv[:, 0], 0, w - 1), np.clip(uv[:, 1], 0, h - 1)])
    p = p.astype(np.float32).astype(np.float64)
    x0, y0 = np.floor(p[:, 0]).astype(int), np.floor(p[:, 1]).astype(int)
    x1, y1 = np.minimum(x0 + 1, w - 1), np.minimum(y0 + 1, h - 1)
    ax, ay = (p[:, 0] - x0)[:, None], (p[:, 1] - y0)[:, None]
    for img, tol in ((f32.astype(np.float64), 1e-3), (u8.astype(np.float64), 0.5 + 1e-4)):
        want = (1 - ay) * ((1 - ax) * img[y0, x0] + ax * img[y0, x1]) + ay * (
            (1 - ax) * img[y1, x0] + ax * img[y1, x1]
        )
        got = bilinear(img.astype(np.float32) if tol < 0.5 else u8, uv)
        assert np.abs(got - want).max() <= tol


def test_a_clamped_point_reads_the_border() -> None:
    img = np.arange(12, dtype=np.uint8).reshape(3, 4)
    got = bilinear(img, np.array([[-5.0, -5.0], [10.0, 1.0], [1.5, 9.0]]))
    np.testing.assert_array_equal(got[:, 0], [0.0, 7.0, 10.0])  # 9.5 -> 10: half to even


def test_another_image_type_is_refused() -> None:
    with pytest.raises(TypeError, match="float64"):
        bilinear(np.zeros((4, 5, 3)), np.zeros((2, 2)))
