"""QR codes for the join link: SVG for the keeper's page, text for the terminal."""

from __future__ import annotations

import io
import socket

import qrcode
import qrcode.image.svg


def qr_svg(data: str) -> str:
    """An SVG drawing of the QR code for ``data`` (scales to its container)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    text: str = image.to_string(encoding="unicode")
    return text


def qr_text(data: str) -> str:
    """The QR code drawn with block characters, for a terminal."""
    qr = qrcode.QRCode(border=1)
    qr.add_data(data)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or 127.0.0.1."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address: str = probe.getsockname()[0]
        return address
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()
