// SwiftPM links an executable with main defined as TokenFuzz_main (so that
// tests could link the module); the fuzz target is built with
// -parse-as-library and has none. This is it: libFuzzer's driver, run on
// the target's LLVMFuzzerTestOneInput (Fuzz/TokenFuzz.swift).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int TokenFuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
