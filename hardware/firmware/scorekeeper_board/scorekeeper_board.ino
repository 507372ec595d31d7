// Scorekeeper LED peg board firmware: a thin Arduino main around the portable protocol core
// (skb_core.cpp). Works on an ESP32 or an AVR Arduino (Uno, Nano) with a WS2812 strip, through
// FastLED (default) or Adafruit NeoPixel (define SKB_USE_NEOPIXEL).
//
// Settings: the data pin, the number of LEDs on the strip, and the power budget of the 5 V
// supply (hardware/WIRING.md sizes it: about 60 mA per LED at full white).
#define SKB_DATA_PIN 5
#define SKB_LED_COUNT 192
#define SKB_SUPPLY_MILLIAMPS 4000
#define SKB_BRIGHTNESS_CAP 96  // also capped by the host; keep in step with layout.json
#define SKB_BAUD 115200

#include <string.h>

#include "skb_core.h"

#ifdef SKB_USE_NEOPIXEL
#include <Adafruit_NeoPixel.h>
static Adafruit_NeoPixel strip(SKB_LED_COUNT, SKB_DATA_PIN, NEO_GRB + NEO_KHZ800);
static uint8_t pixels[SKB_LED_COUNT * 3];
#else
#include <FastLED.h>
static CRGB pixels[SKB_LED_COUNT];  // CRGB is three bytes R, G, B: the core draws into it
#endif

static SkbDevice device;

// Replies wait until the strip is shown: writing a WS2812 strip turns interrupts off (about
// 30 us per LED), and the host sends its next frame as soon as it has the ACK, so the ACK must
// come after the show or those bytes would be lost. An ACK thus means "on the board".
static uint8_t pending[64];
static size_t pending_length = 0;

static void write_serial(void *, const uint8_t *data, size_t length) {
  if (pending_length + length > sizeof pending) {
    Serial.write(pending, pending_length);
    pending_length = 0;
  }
  if (length > sizeof pending) {
    Serial.write(data, length);
    return;
  }
  memcpy(pending + pending_length, data, length);
  pending_length += length;
}

static void flush_replies() {
  if (pending_length > 0) Serial.write(pending, pending_length);
  pending_length = 0;
}

static void show() {
#ifdef SKB_USE_NEOPIXEL
  strip.setBrightness(device.brightness);
  for (uint16_t i = 0; i < SKB_LED_COUNT; i++) {
    strip.setPixelColor(i, pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2]);
  }
  strip.show();
#else
  FastLED.setBrightness(device.brightness);
  FastLED.show();
#endif
  device.dirty = false;
}

void setup() {
  Serial.begin(SKB_BAUD);
#ifdef SKB_USE_NEOPIXEL
  strip.begin();
  skb_init(&device, pixels, SKB_LED_COUNT, write_serial, nullptr);
#else
  FastLED.addLeds<WS2812B, SKB_DATA_PIN, GRB>(pixels, SKB_LED_COUNT);
  FastLED.setMaxPowerInVoltsAndMilliamps(5, SKB_SUPPLY_MILLIAMPS);
  skb_init(&device, reinterpret_cast<uint8_t *>(pixels), SKB_LED_COUNT, write_serial, nullptr);
#endif
  device.max_brightness = SKB_BRIGHTNESS_CAP;
  show();
  skb_send_hello(&device, 0);  // after every reset: the host waits for it
  flush_replies();
}

void loop() {
  uint8_t buffer[64];
  size_t n = 0;
  while (Serial.available() > 0 && n < sizeof buffer) buffer[n++] = (uint8_t)Serial.read();
  if (n > 0) skb_feed(&device, buffer, n, millis());
  if (device.dirty) show();
  flush_replies();
}
