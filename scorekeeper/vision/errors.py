"""Errors of card recognition and calibration; all are ``ValueError`` subclasses.

>>> issubclass(ImageTooLargeError, VisionError) and issubclass(VisionError, ValueError)
True
"""

from __future__ import annotations

from scorekeeper.errors import InvalidInputError


class VisionError(InvalidInputError):
    """Base class for every recognition and calibration input error."""


class NotAnImageError(VisionError):
    """The data is not an image OpenCV can decode (or is truncated)."""


class EmptyImageError(NotAnImageError):
    """The file or upload holds no bytes at all."""


class ImageTooLargeError(VisionError):
    """The image has more pixels than a phone photo can (over 50 megapixels)."""


class ProfileError(VisionError):
    """A deck profile file is missing, unreadable or not a profile of this version."""


class CalibrationError(VisionError):
    """One calibration photo could not be learned; the message says why."""


class NoCardFoundError(CalibrationError):
    """No card-shaped white region in a calibration photo."""


class BlurryImageError(CalibrationError):
    """The card in a calibration photo is too blurred to learn its corner index."""


class NoIndexFoundError(CalibrationError):
    """A card was found but its corner index (rank above suit) was not."""


class CardCodeError(CalibrationError):
    """A calibration photo's file name is not a card code of the deck."""


class ArtMissingError(VisionError):
    """Third-party card art asked for is not installed or cannot be rendered (the message says
    how to install it)."""
