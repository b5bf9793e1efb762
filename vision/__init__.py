"""Vision: from camera images to pieces in table millimetres (issue 5).

- :mod:`vision.background`: the empty table (learned from video or estimated from a still).
- :mod:`vision.solids`: buttons and goalkeepers fitted as 3D solids.
- :mod:`vision.ball`: the ball's sub-pixel fit (sphere silhouette, motion streak, occlusion).
- :mod:`vision.teams`: team identity by colour.
- :mod:`vision.detect`: :class:`vision.detect.Detector`, the whole per-frame pipeline.
- :mod:`vision.detections`: the record passed to the tracker.
"""
