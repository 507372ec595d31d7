// Host test harness for the protocol core: compiled with the machine's g++ by the tests.
//
//   skb_harness feed LED_COUNT < wire.bin   feed the bytes to a device; print every reply
//                                           frame ("tx HEX") and, after each frame, the state
//                                           ("state BRIGHTNESS ACTIVE LEDHEX")
//   skb_harness decode < wire.bin           print every frame as "frame TYPE SEQ BODYHEX" (hex),
//                                           or "error cobs" / "error crc"
//   skb_harness hello LED_COUNT             print the HELLO frame the device sends after reset
//   skb_harness cobs HEX                    print the COBS encoding of HEX
//   skb_harness uncobs HEX                  print the decoding of HEX, or "error"
//   skb_harness crc HEX                     print the CRC-16 of HEX (4 hex digits)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "../scorekeeper_board/skb_core.h"

static std::vector<uint8_t> from_hex(const char *text) {
  std::vector<uint8_t> out;
  for (size_t i = 0; text[i] && text[i + 1]; i += 2) {
    char pair[3] = {text[i], text[i + 1], 0};
    out.push_back((uint8_t)strtoul(pair, nullptr, 16));
  }
  return out;
}

static void print_hex(const char *prefix, const uint8_t *data, size_t length) {
  fputs(prefix, stdout);
  for (size_t i = 0; i < length; i++) printf("%02x", data[i]);
  fputc('\n', stdout);
}

static void write_stdout(void *, const uint8_t *data, size_t length) {
  print_hex("tx ", data, length);
}

static int decode_stdin() {
  std::vector<uint8_t> encoded;
  int c;
  while ((c = getchar()) != EOF) {
    if (c != 0) {
      encoded.push_back((uint8_t)c);
      continue;
    }
    std::vector<uint8_t> frame(encoded.size() + 1);
    long n = skb_cobs_decode(encoded.data(), encoded.size(), frame.data());
    encoded.clear();
    if (n < 0) {
      puts("error cobs");
    } else if (n < 4 || skb_crc16(frame.data(), (size_t)n - 2) !=
                            (uint16_t)((frame[(size_t)n - 2] << 8) | frame[(size_t)n - 1])) {
      puts("error crc");
    } else {
      printf("frame %02x %02x ", frame[0], frame[1]);
      print_hex("", frame.data() + 2, (size_t)n - 4);
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && std::string(argv[1]) == "decode") return decode_stdin();
  if (argc < 3) {
    fprintf(stderr, "usage: skb_harness feed|hello|cobs|uncobs|crc ARG\n");
    return 2;
  }
  std::string mode = argv[1];
  if (mode == "crc") {
    std::vector<uint8_t> data = from_hex(argv[2]);
    printf("%04x\n", skb_crc16(data.data(), data.size()));
    return 0;
  }
  if (mode == "cobs") {
    std::vector<uint8_t> data = from_hex(argv[2]);
    std::vector<uint8_t> out(data.size() + data.size() / 254 + 2);
    size_t n = skb_cobs_encode(data.data(), data.size(), out.data());
    print_hex("", out.data(), n);
    return 0;
  }
  if (mode == "uncobs") {
    std::vector<uint8_t> data = from_hex(argv[2]);
    std::vector<uint8_t> out(data.size() + 1);
    long n = skb_cobs_decode(data.data(), data.size(), out.data());
    if (n < 0) puts("error");
    else print_hex("", out.data(), (size_t)n);
    return 0;
  }
  uint16_t led_count = (uint16_t)atoi(argv[2]);
  std::vector<uint8_t> leds(3 * (size_t)led_count);
  static SkbDevice device;
  skb_init(&device, leds.data(), led_count, write_stdout, nullptr);
  if (mode == "hello") {
    skb_send_hello(&device, 0);
    return 0;
  }
  if (mode != "feed") return 2;
  int c;
  uint32_t frames = 0;
  while ((c = getchar()) != EOF) {
    uint8_t byte = (uint8_t)c;
    skb_feed(&device, &byte, 1, 0);
    if (byte == 0) {
      frames++;
      printf("state %u %u ", device.brightness, device.active);
      print_hex("", leds.data(), leds.size());
    }
  }
  fprintf(stderr, "frames %u ok %u bad %u\n", frames, device.frames_ok, device.frames_bad);
  return 0;
}
