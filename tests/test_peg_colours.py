"""The default peg colours stay apart for everyone: each pair is simulated under protanopia,
deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, full severity, applied to
linear sRGB) and compared by CIEDE2000. Also bright enough for the LED board and visible on the
boards' dark background."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from firmware_bridge import wled
from firmware_bridge.scene import Scene, parse_colour
from scorekeeper.pegboard import PEG_COLOURS

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # colour-science warns that matplotlib is absent
    import colour

#: The least CIEDE2000 between two default peg colours, in every kind of vision.
FLOOR = 15.0
#: The Machado 2009 matrices at full severity: the three dichromacies.
DEFICIENCIES = {"protanopia": "Protanomaly", "deuteranopia": "Deuteranomaly",
                "tritanopia": "Tritanomaly"}
#: The default colours before they were chosen for colour-vision deficiencies.
OLD_COLOURS = {"red": "#e5383b", "blue": "#2f6fde", "gold": "#e0a800", "green": "#2a9d4b",
               "white": "#f2f2f2", "purple": "#8e44ad", "black": "#3a3a3a",
               "orange": "#f07f1a"}
BOARD_BACKGROUND = "#0d1218"
#: Machado's tritan matrices are published for a different shift range; colour-science says so.
pytestmark = pytest.mark.filterwarnings("ignore:.*tritanomaly")


def srgb(text: str) -> np.ndarray:
    return np.array([int(text[i:i + 2], 16) for i in (1, 3, 5)]) / 255


def seen(text: str, deficiency: str | None) -> np.ndarray:
    """The CIELAB colour of ``#rrggbb`` as someone with ``deficiency`` (None: normal) sees it."""
    linear = colour.models.eotf_sRGB(srgb(text))
    if deficiency is not None:
        matrix = colour.matrix_cvd_Machado2009(DEFICIENCIES[deficiency], 1)
        linear = np.clip(matrix @ linear, 0, 1)
    return colour.XYZ_to_Lab(colour.RGB_to_XYZ(linear, "sRGB", apply_cctf_decoding=False))


def closest_pair(colours: dict[str, str], deficiency: str | None) -> tuple[float, str, str]:
    """The two colours that look most alike, and their CIEDE2000."""
    return min((float(colour.delta_E(seen(colours[a], deficiency), seen(colours[b], deficiency),
                                      method="CIE 2000")), a, b)
               for a, b in itertools.combinations(colours, 2))


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio."""
    def luminance(text: str) -> float:
        return float(colour.models.eotf_sRGB(srgb(text)) @ [0.2126, 0.7152, 0.0722])
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_simulation_merges_red_and_green_for_the_red_green_blind() -> None:
    red, green = "#ff0000", "#00ff00"
    normal = colour.delta_E(seen(red, None), seen(green, None), method="CIE 2000")
    for deficiency in ("protanopia", "deuteranopia"):
        blind = colour.delta_E(seen(red, deficiency), seen(green, deficiency), method="CIE 2000")
        assert blind < normal / 2, deficiency
    # tritanopia (blue-yellow) leaves red and green apart
    assert colour.delta_E(seen(red, "tritanopia"), seen(green, "tritanopia"),
                          method="CIE 2000") > normal / 2


def test_the_simulation_leaves_greys_unchanged() -> None:
    for deficiency in DEFICIENCIES:
        for grey in ("#000000", "#7f7f7f", "#ffffff"):
            assert np.allclose(seen(grey, deficiency), seen(grey, None), atol=0.5)


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_default_peg_colours_stay_apart(deficiency: str | None) -> None:
    distance, a, b = closest_pair(PEG_COLOURS, deficiency)
    assert distance >= FLOOR, f"{a} and {b} look alike ({distance:.1f}) to {deficiency}"


def test_the_old_default_colours_fail_the_check() -> None:
    distance, a, b = closest_pair(OLD_COLOURS, "deuteranopia")
    assert distance < FLOOR and {a, b} == {"gold", "orange"}


def test_default_peg_colours_are_bright_and_visible() -> None:
    for name, text in PEG_COLOURS.items():
        channels = [int(text[i:i + 2], 16) for i in (1, 3, 5)]
        assert max(channels) >= 128, name  # lit clearly on the LED board
        assert all(c == 0 or c >= 40 for c in channels), name  # no dim channel to lift
        assert contrast(text, BOARD_BACKGROUND) >= 3.0, name  # WCAG non-text contrast


def test_default_peg_colours_show_unchanged_on_a_wled_board() -> None:
    for name, text in PEG_COLOURS.items():
        assert wled.visible(parse_colour(text)) == parse_colour(text), name


def test_one_threshold_says_which_colours_are_too_dark_for_the_board_and_the_pages() -> None:
    from scorekeeper import pegboard
    assert wled.MIN_CHANNEL is pegboard.MIN_CHANNEL and wled.visible is pegboard.visible
    for text in PEG_COLOURS.values():
        assert pegboard.dark_colour_warning(text) is None
    for text, dark in (("#230000", True), ("#240000", False), ("#101010", True),
                       ("#000000", True), ("#0d1218", True)):
        warning = pegboard.dark_colour_warning(text)
        assert (warning is not None) is dark, text
        assert bool(wled.dark_colours(Scene.from_scores([(text, 5)]))) is dark, text
    assert "shown as #242424" in str(pegboard.dark_colour_warning("#000000"))
