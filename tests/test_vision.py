"""Card recognition on real JPEG files of generated table photos, and bad input."""

from __future__ import annotations

import dataclasses
import io
import struct
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from scorekeeper.cards import deck_codes
from scorekeeper.vision import (
    EmptyImageError,
    ImageTooLargeError,
    NotAnImageError,
    ProfileError,
    Recognition,
    builtin_profile,
    load_profile,
    recognize,
    save_profile,
)
from scorekeeper.vision.images import MAX_PIXELS, decode, exif_orientation, with_orientation
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.synth import SynthPhoto, background, make_photo

SIZE = (2400, 1800)


@pytest.fixture(scope="module")
def reference() -> DeckProfile:
    return builtin_profile()


def match(shot: SynthPhoto, result: Recognition) -> tuple[int, int, bool]:
    """(cards read right, extra detections, top card right) matching cards by position."""
    used: set[int] = set()
    right = 0
    top_ok = True
    for truth in shot.cards:
        tc = np.array(truth.corners)
        width = float(np.linalg.norm(tc[1] - tc[0]))
        best = None
        for j, card in enumerate(result.cards):
            dist = float(np.linalg.norm(np.array(card.corners).mean(axis=0) - tc.mean(axis=0)))
            if j not in used and dist < 0.6 * width and (best is None or dist < best[0]):
                best = (dist, j)
        if best is None:
            top_ok = top_ok and not truth.top
            continue
        used.add(best[1])
        found = result.cards[best[1]]
        right += found.code == truth.code
        top_ok = top_ok and found.top == truth.top
    return right, len(result.cards) - len(used), top_ok


def test_reference_deck_photos_read_from_jpeg_files(tmp_path: Path,
                                                    reference: DeckProfile) -> None:
    rng = np.random.default_rng(20261121)
    codes = deck_codes("toss")
    cards = right = extras = photos_right = tops = tops_right = 0
    for i in range(10):
        shot = make_photo(rng, codes, size=SIZE)
        path = tmp_path / f"photo{i}.jpg"
        path.write_bytes(shot.jpeg)
        result = recognize(path, reference)
        r, extra, top_ok = match(shot, result)
        cards += len(shot.cards)
        right += r
        extras += extra
        photos_right += r == len(shot.cards) and extra == 0
        if any(t.top for t in shot.cards):
            tops += 1
            tops_right += top_ok
        for card in result.cards:
            assert 0.0 <= card.confidence <= 1.0
            assert len(card.corners) == 4
        xs = [np.mean([x for x, _ in c.corners]) for c in result.cards]
        assert xs == sorted(xs), "cards come left to right"
    assert right / cards >= 0.95, (right, cards)
    assert extras <= 1
    assert photos_right >= 8
    assert tops >= 3 and tops_right >= tops - 1


def test_fan_marks_exactly_the_top_card(reference: DeckProfile) -> None:
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(4):
        shot = make_photo(rng, deck_codes("toss"), size=SIZE, kind="fan", max_tilt=25)
        result = recognize(shot.jpeg, reference)
        truth_top = next(t for t in shot.cards if t.top)
        tops = [c for c in result.cards if c.top]
        assert len(tops) == 1
        assert tops[0].code == truth_top.code
        assert result.top is tops[0]
        checked += 1
    assert checked == 4


@pytest.mark.parametrize("light", ["warm", "cool"])
def test_joker_colours_told_apart_by_the_card_white(light: str, reference: DeckProfile) -> None:
    codes = ["jk-black", "jk-red", "jk-gold", "jk-blue", "boss"]
    rng = np.random.default_rng(11 if light == "warm" else 12)
    shot = make_photo(rng, codes, size=SIZE, kind="apart", light=light, max_tilt=20,
                      quality=(70, 90))
    result = recognize(shot.jpeg, reference)
    right, extra, _ = match(shot, result)
    assert right == len(shot.cards) and extra == 0, (shot.cards, result.codes)


def test_exif_orientation_gives_upright_corners(reference: DeckProfile) -> None:
    rng = np.random.default_rng(3)
    shot = make_photo(rng, ["Qsh", "7or", "Acr"], size=(1800, 1200), kind="apart", exif=False,
                      max_tilt=10, quality=(90, 90))
    upright = recognize(shot.jpeg, reference)
    img = cv2.imdecode(np.frombuffer(shot.jpeg, np.uint8), cv2.IMREAD_COLOR)
    ok, buf = cv2.imencode(".jpg", cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE),
                           [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    sideways = with_orientation(buf.tobytes(), 6)
    assert exif_orientation(sideways) == 6
    assert decode(sideways).image.shape[:2] == (1200, 1800)
    turned = recognize(sideways, reference)
    assert sorted(turned.codes) == sorted(upright.codes) == sorted(c.code for c in shot.cards)
    for a, b in zip(upright.cards, turned.cards, strict=True):
        assert a.code == b.code
        assert np.abs(np.array(a.corners) - np.array(b.corners)).max() < 8


def test_a_quick_shrink_is_the_area_shrink_within_a_grey_level() -> None:
    rng = np.random.default_rng(4)
    shot = make_photo(rng, ["Qsh", "7or", "Acr"], size=(2000, 1500), kind="fan", max_tilt=20,
                      quality=(85, 85))
    area = decode(shot.jpeg, max_side=1400)
    quick = decode(shot.jpeg, max_side=1400, quick=True)
    assert quick.image.shape == area.image.shape == (1050, 1400, 3)
    assert quick.scale == area.scale and quick.detail is not None
    diff = np.abs(quick.image.astype(np.float32) - area.image.astype(np.float32))
    assert float(diff.mean()) < 1.0 and float(np.percentile(diff, 99.9)) < 16


def test_corners_follow_the_card(reference: DeckProfile) -> None:
    rng = np.random.default_rng(5)
    shot = make_photo(rng, ["9he", "Kca"], size=SIZE, kind="apart", max_tilt=30)
    result = recognize(shot.jpeg, reference)
    for truth in shot.cards:
        tc = np.array(truth.corners)
        width = float(np.linalg.norm(tc[1] - tc[0]))
        card = next(c for c in result.cards if c.code == truth.code)
        found = np.array(card.corners)
        # The same four corners, maybe starting from the opposite one (index read upside down).
        err = min(np.linalg.norm(np.roll(found, k, axis=0) - tc, axis=1).max() for k in (0, 2))
        assert err < 0.2 * width


def test_table_without_cards_gives_a_warning(reference: DeckProfile) -> None:
    img = background(np.random.default_rng(1), 1200, 900)
    ok, buf = cv2.imencode(".jpg", img)
    result = recognize(buf.tobytes(), reference)
    assert result.cards == ()
    assert result.warnings and "no card" in result.warnings[0]


def test_not_an_image() -> None:
    with pytest.raises(NotAnImageError, match="not an image"):
        recognize(b"these are not the photos you are looking for")


def test_empty_image(tmp_path: Path) -> None:
    path = tmp_path / "empty.jpg"
    path.write_bytes(b"")
    with pytest.raises(EmptyImageError, match="empty"):
        recognize(path)
    with pytest.raises(EmptyImageError):
        recognize(b"")


def test_truncated_jpeg() -> None:
    ok, buf = cv2.imencode(".jpg", np.full((200, 300, 3), 128, np.uint8))
    with pytest.raises(NotAnImageError):
        recognize(buf.tobytes()[:60])


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(NotAnImageError, match="cannot read"):
        recognize(tmp_path / "nowhere.jpg")


def _png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr
            + b"\x00\x00\x00\x00")


def _jpeg_header(width: int, height: int) -> bytes:
    sof = struct.pack(">BHHB", 8, height, width, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    return b"\xff\xd8" + b"\xff\xc0" + struct.pack(">H", len(sof) + 2) + sof + b"\xff\xd9"


@pytest.mark.parametrize("header", [_png_header(10000, 6000), _jpeg_header(9000, 6000)])
def test_over_50_megapixels_is_refused_before_decoding(header: bytes) -> None:
    assert len(header) < 100
    with pytest.raises(ImageTooLargeError, match="50 megapixels"):
        recognize(header)


def test_50_megapixels_exactly_is_not_refused_by_size() -> None:
    side = int(MAX_PIXELS**0.5)
    with pytest.raises(NotAnImageError):  # the header is fine, the data is missing
        recognize(_png_header(side, side))


def test_profile_round_trip(tmp_path: Path, reference: DeckProfile) -> None:
    path = tmp_path / "ref.npz"
    save_profile(reference, path)
    back = load_profile(path)
    assert back.codes == reference.codes
    assert back.deck == "toss"
    assert np.allclose(back.templates, reference.templates, atol=1e-3)
    assert (back.ink == reference.ink).all()


def test_garbage_profile_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.npz"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(ProfileError, match="not a deck profile"):
        load_profile(path)
    with pytest.raises(ProfileError, match="cannot read"):
        load_profile(tmp_path / "missing.npz")


def test_builtin_profile_holds_the_whole_toss_deck(reference: DeckProfile) -> None:
    assert set(reference.codes) == set(deck_codes("toss"))
    assert len(reference.codes) == 110  # 111 cards, the two nulls alike


def test_calibration_photo_learned_or_refused_with_a_reason() -> None:
    from scorekeeper.vision import BlurryImageError, NoCardFoundError, learn_photo
    from scorekeeper.vision.reference import ALTERNATE
    from scorekeeper.vision.synth import calibration_photo

    data = calibration_photo(np.random.default_rng(4), "Qor", ALTERNATE, size=(1600, 1200))
    model = learn_photo(data, "Qor")
    assert model.code == "Qor" and len(model.templates) >= 9
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    ok, blurred = cv2.imencode(".jpg", cv2.GaussianBlur(img, (0, 0), 9))
    with pytest.raises(BlurryImageError, match="blurred"):
        learn_photo(blurred.tobytes(), "Qor")
    ok, table = cv2.imencode(".jpg", background(np.random.default_rng(4), 1600, 1200))
    with pytest.raises(NoCardFoundError, match="no card"):
        learn_photo(table.tobytes(), "Qor")


def test_a_photo_of_no_card_shape_is_refused_saying_so_and_nothing_is_learned(
        tmp_path: Path) -> None:
    from scorekeeper.vision import NoCardFoundError, calibrate_dir, learn_photo

    # A white strip six times as long as wide, alone on a table: no card seen from above.
    img = background(np.random.default_rng(4), 1600, 1200).copy()
    cv2.rectangle(img, (300, 520), (1300, 680), (245, 245, 245), -1)
    ok, strip = cv2.imencode(".jpg", img)
    assert ok
    with pytest.raises(NoCardFoundError, match="no card-shaped region found: photograph the card"):
        learn_photo(strip.tobytes(), "Qor")
    (tmp_path / "Qor.jpg").write_bytes(strip.tobytes())
    result = calibrate_dir(tmp_path)
    assert "card-shaped" in result.failed["Qor.jpg"]
    assert not result.learned and not result.profile.codes


def test_profile_learns_and_forgets_a_card_at_a_time(reference: DeckProfile) -> None:
    models = reference.models()
    small = DeckProfile.from_models("mine", "toss", models[:3])
    assert small.codes == reference.codes[:3]
    grown = small.with_card(models[10])
    assert grown.codes == reference.codes[:3] + (reference.codes[10],)
    again = grown.with_card(models[0])
    assert sorted(again.codes) == sorted(grown.codes)
    assert reference.codes[1] not in grown.without(reference.codes[1]).codes
    back = DeckProfile.from_bytes(grown.to_bytes())
    assert back.codes == grown.codes
    assert (back.owner == grown.owner).all()


def test_profile_keeps_which_cards_show_a_lone_corner_mark(reference: DeckProfile) -> None:
    models = reference.models()[:3]
    models[1] = dataclasses.replace(models[1], lone=True)
    profile = DeckProfile.from_models("mine", "toss", models)
    assert DeckProfile.from_bytes(profile.to_bytes()).lone.tolist() == [False, True, False]
    # A profile saved before lone marks were learned has no "lone" entry: none of its cards is.
    with np.load(io.BytesIO(profile.to_bytes())) as npz:
        old = {k: npz[k] for k in npz.files if k != "lone"}
    buf = io.BytesIO()
    np.savez_compressed(buf, **old)
    back = DeckProfile.from_bytes(buf.getvalue())
    assert back.codes == profile.codes and back.lone.tolist() == [False, False, False]
    damaged = io.BytesIO()
    np.savez_compressed(damaged, **old, lone=np.zeros(5, np.bool_))
    with pytest.raises(ProfileError, match="damaged"):
        DeckProfile.from_bytes(damaged.getvalue())


def _faded(shot: SynthPhoto, keep: float) -> bytes:
    """The photo (PNG) with the cards' print faded to ``keep`` of its contrast: a worn deck,
    or pale ink, whose index marks are fainter than usual."""
    img = cv2.imdecode(np.frombuffer(shot.jpeg, np.uint8), cv2.IMREAD_COLOR)
    mask = np.zeros(img.shape[:2], np.uint8)
    for card in shot.cards:
        cv2.fillConvexPoly(mask, np.array(card.corners, np.int32), 1)
    white = np.percentile(img[mask > 0].reshape(-1, 3), 95, axis=0)
    faded = white - (white - img.astype(np.float32)) * keep
    out = np.where(mask[..., None] > 0, faded, img).clip(0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".png", out)
    assert ok
    return buf.tobytes()


def test_faint_index_ink_is_still_read(reference: DeckProfile) -> None:
    rng = np.random.default_rng(5)
    cards = right = 0
    for _ in range(3):
        shot = make_photo(rng, deck_codes("toss"), size=SIZE, kind="apart", max_tilt=20,
                          quality=(92, 95), exif=False, light="neutral")
        result = recognize(_faded(shot, 0.45), reference)
        r, extra, _ = match(shot, result)
        cards += len(shot.cards)
        right += r
        assert extra == 0
    assert right >= 0.8 * cards, (right, cards)


def test_guesses_compared_in_chunks_read_as_all_at_once(reference: DeckProfile,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # The coarse comparison takes the guesses a chunk at a time to bound its memory; chunk
    # edges (here every 7 guesses, most chunks with no guess worth a second look) change
    # nothing.
    from scorekeeper.vision import coarse

    shot = make_photo(np.random.default_rng(11), deck_codes("toss"), size=SIZE, kind="fan")
    whole = recognize(shot.jpeg, reference)
    monkeypatch.setattr(coarse, "SCORE_ROWS", 7)
    chunked = recognize(shot.jpeg, reference)
    assert len(whole.cards) >= 2
    assert chunked.to_json() == whole.to_json()


def test_pairs_of_marks_whose_card_lies_off_the_cards_are_dropped_unread(
        reference: DeckProfile, monkeypatch: pytest.MonkeyPatch) -> None:
    # Before the comparison, the pairs of marks whose card would reach off the cards (pips in
    # a card's middle, most of a busy photo's pairs) are dropped; every card reads as before.
    from scorekeeper.vision import recognition

    shot = make_photo(np.random.default_rng(11), deck_codes("toss"), size=SIZE, kind="fan")
    checked = recognition._placeable
    counts: list[tuple[int, int]] = []

    def counted(scene: Any, guesses: list[Any], placements: Any) -> list[Any]:
        kept = checked(scene, guesses, placements)
        counts.append((len(guesses), len(kept)))
        return kept

    monkeypatch.setattr(recognition, "_placeable", counted)
    with_check = recognize(shot.jpeg, reference)
    monkeypatch.setattr(recognition, "_placeable", lambda scene, guesses, placements: guesses)
    without = recognize(shot.jpeg, reference)
    assert len(with_check.cards) >= 2
    assert with_check.to_json() == without.to_json()
    (before, after), = counts
    assert after < 0.5 * before  # 178 of 724 kept when written


def test_patches_sampled_together_match_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # The coarse comparison samples every guess's patch in a few remap calls (in runs of
    # ``REMAP_ROWS`` pixel rows, here 3 patches a run); each must be the patch its own frame
    # gives.
    from scorekeeper.vision import features

    rng = np.random.default_rng(5)
    img = cv2.GaussianBlur(rng.random((300, 400)).astype(np.float32), (0, 0), 3)
    pips = rng.uniform(60, 240, (10, 2))
    anchors = pips + rng.uniform(-30, 30, (10, 2))
    frames = features.frame_matrices(pips, anchors)
    monkeypatch.setattr(features, "REMAP_ROWS", 3 * features.PATCH_H)
    rows = features.sample_patches(img, frames)
    for row, pip, anchor in zip(rows, pips, anchors, strict=True):
        one = features.sample_patch(img, features.frame_matrix(pip, anchor)).ravel()
        assert np.abs(row - one).max() < 1e-3


def test_marks_found_where_they_are_with_the_table_cut_away() -> None:
    # Marks are looked for only in the box around the inked cards; they keep their places in
    # the photo, also against its edges.
    from scorekeeper.vision.marks import _marks

    ink = np.zeros((200, 300), np.float32)
    ink[150:170, 250:260] = 1.0
    ink[0:12, 290:300] = 1.0
    blobs, _ = _marks(ink)
    boxes = {(b.x, b.y, b.w, b.h) for b in blobs}
    assert (250, 150, 10, 20) in boxes and (290, 0, 10, 12) in boxes
    centre = next(b.centroid for b in blobs if b.x == 250)
    assert np.allclose(centre, (254.5, 159.5))
    assert _marks(np.zeros((50, 50), np.float32)) == ([], [])


def test_two_small_cards_on_a_coloured_cloth_are_found_as_cards() -> None:
    # Two cards far from the phone fill less than the whitest 3% of the photo that it is
    # balanced on: with part of a magenta check cloth among those, the cards (bluish under
    # cool light) came out too green for card white, and no card region was found.
    from scorekeeper.vision.scene import analyse

    rng = np.random.default_rng(5)
    yy, xx = np.mgrid[0:1050, 0:1400]
    check = ((yy // 90 + xx // 90) % 2).astype(bool)[..., None]
    photo = np.where(check, np.float32((104, 33, 87)), np.float32((121, 40, 127)))
    outlines = []
    for centre, angle in (((420, 330), 20), ((490, 340), -10)):
        box = cv2.boxPoints((centre, (100, 140), angle))
        cv2.fillConvexPoly(photo, box.astype(np.int32), (178, 167, 142))
        cv2.circle(photo, centre, 15, (20, 20, 20), -1)
        outlines.append(box)
    photo = np.clip(photo + rng.normal(0, 3, photo.shape), 0, 255).astype(np.uint8)
    scene = analyse(photo)
    for box in outlines:
        inside = np.zeros(scene.filled.shape, np.uint8)
        cv2.fillConvexPoly(inside, (box / 2).astype(np.int32), 1)  # regions are at half size
        assert (scene.filled[inside > 0] > 0).mean() > 0.9


def test_work_kept_with_a_profile_goes_when_the_profile_does(reference: DeckProfile) -> None:
    # The server reads every photo of a table against one profile, so the close comparison's
    # learned parts stay with it; a table that learns a card gets a new profile, and the old
    # one's parts must not stay behind. A second reading with the parts kept reads the same.
    import gc
    import weakref

    from scorekeeper.vision import kept

    rng = np.random.default_rng(11)
    shot = make_photo(rng, ["9he", "Kca", "7or"], size=SIZE, kind="fan", max_tilt=20)
    profile = DeckProfile.from_bytes(reference.to_bytes())
    first = recognize(shot.jpeg, profile)
    assert kept._kept(profile).parts
    again = recognize(shot.jpeg, profile)
    assert [(c.code, c.confidence) for c in again.cards] == [
        (c.code, c.confidence) for c in first.cards]
    held = len(kept._KEPT)
    gone = weakref.ref(profile)
    del profile
    gc.collect()
    assert gone() is None
    assert len(kept._KEPT) == held - 1
