// libFuzzer's entry for programs with a main of their own (SwiftPM gives every executable one); the library
// itself comes with `-sanitize=fuzzer`.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
