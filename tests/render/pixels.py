"""Pictures are saved with 256 colours, so a flat colour may come back a few units off: tests
compare colours within a tolerance no eye sees."""

TOLERANCE = 8


def near(pixel, colour, tolerance: int = TOLERANCE) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def colour_count(image, colour, box=None, tolerance: int = TOLERANCE) -> int:
    """Pixels of ``image`` (or of ``box`` in it) within ``tolerance`` of ``colour``."""
    region = image.crop(box) if box else image
    return sum(count for count, rgb in region.getcolors(1 << 20) if near(rgb, colour, tolerance))
