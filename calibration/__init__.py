"""Camera model and calibration: table millimetres <-> image pixels."""

from calibration.camera import (
    CAMERA_PRESETS,
    Camera,
    CameraError,
    load_camera,
    preset_camera,
    save_camera,
)

__all__ = ["CAMERA_PRESETS", "Camera", "CameraError", "load_camera", "preset_camera", "save_camera"]
