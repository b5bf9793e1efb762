"""Geometry in table millimetres: table specs, the field model, footprints, measurements."""
