// Scorekeeper LED peg board: protocol core. See skb_core.h and hardware/PROTOCOL.md.
#include "skb_core.h"

#include <string.h>

uint16_t skb_crc16(const uint8_t *data, size_t length) {
  uint16_t crc = 0xFFFF;
  for (size_t i = 0; i < length; i++) {
    crc ^= (uint16_t)data[i] << 8;
    for (uint8_t bit = 0; bit < 8; bit++) {
      crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
  }
  return crc;
}

size_t skb_cobs_encode(const uint8_t *in, size_t length, uint8_t *out) {
  size_t code_at = 0;
  bool open = true;
  size_t n = 1;
  uint8_t code = 1;
  out[0] = 0;
  for (size_t i = 0; i < length; i++) {
    if (in[i] == 0) {
      out[code_at] = code;
      code_at = n++;
      out[code_at] = 0;
      code = 1;
      continue;
    }
    out[n++] = in[i];
    code++;
    if (code == 0xFF) {  // a full block of 254 bytes: no zero follows it
      out[code_at] = code;
      code = 1;
      open = false;
      if (i + 1 < length) {
        code_at = n++;
        out[code_at] = 0;
        open = true;
      }
    }
  }
  if (open) out[code_at] = code;
  return n;
}

long skb_cobs_decode(const uint8_t *in, size_t length, uint8_t *out) {
  size_t i = 0, n = 0;
  while (i < length) {
    uint8_t code = in[i];
    if (code == 0 || i + code > length) return -1;
    for (size_t k = i + 1; k < i + code; k++) {
      if (in[k] == 0) return -1;
      out[n++] = in[k];
    }
    i += code;
    if (code < 0xFF && i < length) out[n++] = 0;
  }
  return (long)n;
}

static void send_frame(SkbDevice *d, uint8_t type, uint8_t seq, const uint8_t *body,
                       size_t body_length) {
  uint8_t raw[16];
  uint8_t wire[20];
  raw[0] = type;
  raw[1] = seq;
  if (body_length > 0) memcpy(raw + 2, body, body_length);
  uint16_t crc = skb_crc16(raw, body_length + 2);
  raw[body_length + 2] = (uint8_t)(crc >> 8);
  raw[body_length + 3] = (uint8_t)(crc & 0xFF);
  size_t n = skb_cobs_encode(raw, body_length + 4, wire);
  wire[n++] = 0;
  if (d->write) d->write(d->context, wire, n);
}

static void ack(SkbDevice *d, uint8_t seq) { send_frame(d, SKB_ACK, seq, 0, 0); }

static void nak(SkbDevice *d, uint8_t seq, uint8_t reason) {
  send_frame(d, SKB_NAK, seq, &reason, 1);
}

void skb_send_hello(SkbDevice *d, uint8_t seq) {
  uint8_t body[7] = {SKB_PROTOCOL_VERSION, SKB_FW_MAJOR, SKB_FW_MINOR, SKB_FW_PATCH,
                     (uint8_t)(d->led_count >> 8), (uint8_t)(d->led_count & 0xFF),
                     SKB_MAX_BOARDS};
  send_frame(d, SKB_HELLO, seq, body, sizeof body);
}

void skb_default_layout(SkbDevice *d) {
  for (uint8_t b = 0; b < SKB_MAX_BOARDS; b++) {
    uint16_t start = (uint16_t)(b * SKB_LEDS_PER_BOARD);
    for (uint8_t h = 0; h < 10; h++) {
      d->map[b][h] = (uint16_t)(start + h);            // hundreds: left to right
      d->map[b][10 + h] = (uint16_t)(start + 19 - h);  // tens: right to left
      d->map[b][20 + h] = (uint16_t)(start + 20 + h);  // ones: left to right
    }
    d->map[b][30] = (uint16_t)(start + 30);
    d->map[b][31] = (uint16_t)(start + 31);
  }
}

void skb_init(SkbDevice *d, uint8_t *leds, uint16_t led_count, SkbWriteFn write,
              void *context) {
  memset(d, 0, sizeof *d);
  d->leds = leds;
  d->led_count = led_count;
  d->write = write;
  d->context = context;
  d->brightness = 64;
  d->max_brightness = 255;
  skb_default_layout(d);
  skb_render(d);
}

static void light(SkbDevice *d, uint16_t index, const uint8_t rgb[3]) {
  if (index == SKB_NO_LED || index >= d->led_count) return;
  memcpy(d->leds + 3 * (size_t)index, rgb, 3);
}

void skb_render(SkbDevice *d) {
  memset(d->leds, 0, 3 * (size_t)d->led_count);
  for (uint8_t b = 0; b < d->active; b++) {
    const SkbBoard *board = &d->boards[b];
    for (uint8_t row = 0; row < 3; row++) light(d, d->map[b][row * 10 + board->holes[row]], board->rgb);
    if (board->flags & 1) light(d, d->map[b][30], board->rgb);
    if (board->flags & 2) light(d, d->map[b][31], board->rgb);
  }
  d->dirty = true;
}

static bool holes_ok(const uint8_t *holes) { return holes[0] < 10 && holes[1] < 10 && holes[2] < 10; }

static uint8_t cap(const SkbDevice *d, uint8_t level) {
  return level > d->max_brightness ? d->max_brightness : level;
}

void skb_handle_frame(SkbDevice *d, const uint8_t *f, size_t length) {
  if (length < 4 || skb_crc16(f, length - 2) != (uint16_t)((f[length - 2] << 8) | f[length - 1])) {
    d->frames_bad++;
    nak(d, 0, SKB_NAK_BAD_FRAME);
    return;
  }
  uint8_t type = f[0], seq = f[1];
  const uint8_t *body = f + 2;
  size_t n = length - 4;
  d->frames_ok++;
  switch (type) {
    case SKB_HELLO_REQUEST:
      if (n != 0) break;
      skb_send_hello(d, seq);
      return;
    case SKB_HEARTBEAT:
      if (n != 0) break;
      ack(d, seq);
      return;
    case SKB_LAYOUT: {
      if (n != 1 + 2 * SKB_LEDS_PER_BOARD) break;
      if (body[0] >= SKB_MAX_BOARDS) { nak(d, seq, SKB_NAK_BAD_VALUE); return; }
      uint16_t map[SKB_LEDS_PER_BOARD];
      for (uint8_t i = 0; i < SKB_LEDS_PER_BOARD; i++) {
        map[i] = (uint16_t)((body[1 + 2 * i] << 8) | body[2 + 2 * i]);
        if (map[i] != SKB_NO_LED && map[i] >= d->led_count) { nak(d, seq, SKB_NAK_BAD_VALUE); return; }
      }
      memcpy(d->map[body[0]], map, sizeof map);
      skb_render(d);
      ack(d, seq);
      return;
    }
    case SKB_FULL_STATE: {
      if (n < 2 || n != 2 + 7 * (size_t)body[1]) break;
      uint8_t count = body[1];
      if (count > SKB_MAX_BOARDS) { nak(d, seq, SKB_NAK_BAD_VALUE); return; }
      for (uint8_t b = 0; b < count; b++) {
        if (!holes_ok(body + 2 + 7 * b + 3)) { nak(d, seq, SKB_NAK_BAD_VALUE); return; }
      }
      for (uint8_t b = 0; b < count; b++) {
        const uint8_t *e = body + 2 + 7 * b;
        memcpy(d->boards[b].rgb, e, 3);
        memcpy(d->boards[b].holes, e + 3, 3);
        d->boards[b].flags = e[6];
      }
      d->active = count;
      d->brightness = cap(d, body[0]);
      skb_render(d);
      ack(d, seq);
      return;
    }
    case SKB_PEGS: {
      if (n == 0 || n % 5 != 0) break;
      for (size_t i = 0; i < n; i += 5) {
        if (body[i] >= d->active || !holes_ok(body + i + 1)) { nak(d, seq, SKB_NAK_BAD_VALUE); return; }
      }
      for (size_t i = 0; i < n; i += 5) {
        SkbBoard *board = &d->boards[body[i]];
        memcpy(board->holes, body + i + 1, 3);
        board->flags = body[i + 4];
      }
      skb_render(d);
      ack(d, seq);
      return;
    }
    case SKB_BRIGHTNESS:
      if (n != 1) break;
      d->brightness = cap(d, body[0]);
      d->dirty = true;
      ack(d, seq);
      return;
    case SKB_TEST_LIGHT: {
      if (n != 7) break;
      uint16_t start = (uint16_t)((body[0] << 8) | body[1]);
      uint16_t count = (uint16_t)((body[2] << 8) | body[3]);
      if ((uint32_t)start + count > d->led_count) { nak(d, seq, SKB_NAK_BAD_VALUE); return; }
      d->active = 0;
      memset(d->leds, 0, 3 * (size_t)d->led_count);
      for (uint16_t i = 0; i < count; i++) memcpy(d->leds + 3 * (size_t)(start + i), body + 4, 3);
      d->dirty = true;
      ack(d, seq);
      return;
    }
    default:
      nak(d, seq, SKB_NAK_UNKNOWN_TYPE);
      return;
  }
  nak(d, seq, SKB_NAK_BAD_LENGTH);
}

void skb_feed(SkbDevice *d, const uint8_t *data, size_t length, uint32_t now_ms) {
  for (size_t i = 0; i < length; i++) {
    uint8_t byte = data[i];
    if (byte != 0) {
      if (d->rx_length < SKB_MAX_ENCODED) d->rx[d->rx_length++] = byte;
      else d->rx_overflow = true;
      continue;
    }
    if (d->rx_overflow) {
      d->frames_bad++;
      nak(d, 0, SKB_NAK_TOO_LONG);
    } else if (d->rx_length > 0) {
      uint8_t frame[SKB_MAX_ENCODED];
      long n = skb_cobs_decode(d->rx, d->rx_length, frame);
      d->last_frame_ms = now_ms;
      if (n < 0) {
        d->frames_bad++;
        nak(d, 0, SKB_NAK_BAD_FRAME);
      } else {
        skb_handle_frame(d, frame, (size_t)n);
      }
    }
    d->rx_length = 0;
    d->rx_overflow = false;
  }
}
