// Scorekeeper LED peg board: the protocol core (hardware/PROTOCOL.md).
// Portable C++ (no Arduino headers): COBS framing, CRC-16/CCITT-FALSE, message handling and
// rendering of the peg boards into an RGB buffer. The Arduino sketch and the host test harness
// both compile this file unchanged.
#ifndef SKB_CORE_H
#define SKB_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifndef SKB_MAX_BOARDS
#define SKB_MAX_BOARDS 6
#endif

#define SKB_PROTOCOL_VERSION 1
#define SKB_FW_MAJOR 1
#define SKB_FW_MINOR 0
#define SKB_FW_PATCH 0

#define SKB_LEDS_PER_BOARD 32
#define SKB_NO_LED 0xFFFF
#define SKB_MAX_FRAME 96                    // decoded: type, seq, body, crc
#define SKB_MAX_ENCODED (SKB_MAX_FRAME + 2)  // COBS adds one byte per 254

enum SkbType {
  SKB_HELLO_REQUEST = 0x01,
  SKB_LAYOUT = 0x02,
  SKB_FULL_STATE = 0x03,
  SKB_PEGS = 0x04,
  SKB_BRIGHTNESS = 0x05,
  SKB_HEARTBEAT = 0x06,
  SKB_TEST_LIGHT = 0x07,
  SKB_HELLO = 0x81,
  SKB_ACK = 0x82,
  SKB_NAK = 0x83
};

enum SkbNak {
  SKB_NAK_BAD_FRAME = 1,
  SKB_NAK_UNKNOWN_TYPE = 2,
  SKB_NAK_BAD_LENGTH = 3,
  SKB_NAK_BAD_VALUE = 4,
  SKB_NAK_TOO_LONG = 5
};

typedef void (*SkbWriteFn)(void *context, const uint8_t *data, size_t length);

struct SkbBoard {
  uint8_t rgb[3];
  uint8_t holes[3];  // hundreds, tens, ones
  uint8_t flags;     // bit 0 minus light, bit 1 thousand light
};

struct SkbDevice {
  uint8_t *leds;       // led_count * 3 bytes, R G B (a FastLED CRGB array fits)
  uint16_t led_count;
  uint16_t map[SKB_MAX_BOARDS][SKB_LEDS_PER_BOARD];
  SkbBoard boards[SKB_MAX_BOARDS];
  uint8_t active;      // boards shown (0..SKB_MAX_BOARDS)
  uint8_t brightness;
  uint8_t max_brightness;  // cap for every brightness the host asks for (default 255)
  bool dirty;          // the LED buffer or brightness changed: show it
  uint8_t rx[SKB_MAX_ENCODED];
  uint16_t rx_length;
  bool rx_overflow;
  uint32_t frames_ok;
  uint32_t frames_bad;
  uint32_t last_frame_ms;
  SkbWriteFn write;
  void *context;
};

uint16_t skb_crc16(const uint8_t *data, size_t length);
// Returns the encoded length (never more than length + length / 254 + 1).
size_t skb_cobs_encode(const uint8_t *in, size_t length, uint8_t *out);
// Returns the decoded length, or -1 for a malformed block.
long skb_cobs_decode(const uint8_t *in, size_t length, uint8_t *out);

// Sets up the device with the default serpentine layout (32 LEDs per board), a dark strip,
// brightness 64 and no cap (max_brightness 255: the sketch lowers it to its supply).
void skb_init(SkbDevice *device, uint8_t *leds, uint16_t led_count, SkbWriteFn write,
              void *context);
void skb_default_layout(SkbDevice *device);
// Sends a HELLO frame (after reset: seq 0).
void skb_send_hello(SkbDevice *device, uint8_t seq);
// Feeds received bytes; complete frames are handled and answered through write().
void skb_feed(SkbDevice *device, const uint8_t *data, size_t length, uint32_t now_ms);
// Handles one decoded frame (type..crc); exposed for tests.
void skb_handle_frame(SkbDevice *device, const uint8_t *frame, size_t length);
// Redraws the LED buffer from the boards and the layout.
void skb_render(SkbDevice *device);

#endif
