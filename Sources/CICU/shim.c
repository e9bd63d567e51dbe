// The only file that includes ICU's headers: see include/shim.h.
#include "shim.h"

#include <unicode/utypes.h>
#include <unicode/uspoof.h>
#include <unicode/unorm2.h>

void *
sb_spoof_open(void)
{
    UErrorCode error = U_ZERO_ERROR;
    USpoofChecker *checker = uspoof_open(&error);
    return U_SUCCESS(error) ? checker : NULL;
}

void
sb_spoof_close(void *checker)
{
    uspoof_close((USpoofChecker *)checker);
}

int32_t
sb_spoof_skeleton(const void *checker, const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity)
{
    UErrorCode error = U_ZERO_ERROR;
    int32_t written = uspoof_getSkeleton((const USpoofChecker *)checker, 0, (const UChar *)text, length,
                                         (UChar *)out, capacity, &error);
    if (error == U_BUFFER_OVERFLOW_ERROR) return written;
    return U_SUCCESS(error) ? written : -1;
}

static int32_t
normalize(const UNormalizer2 *normalizer, UErrorCode error, const uint16_t *text, int32_t length, uint16_t *out,
          int32_t capacity)
{
    if (U_FAILURE(error)) return -1;
    int32_t written = unorm2_normalize(normalizer, (const UChar *)text, length, (UChar *)out, capacity, &error);
    if (error == U_BUFFER_OVERFLOW_ERROR) return written;
    return U_SUCCESS(error) ? written : -1;
}

int32_t
sb_nfkc_casefold(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity)
{
    UErrorCode error = U_ZERO_ERROR;
    const UNormalizer2 *normalizer = unorm2_getNFKCCasefoldInstance(&error);
    return normalize(normalizer, error, text, length, out, capacity);
}

int32_t
sb_nfkc(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity)
{
    UErrorCode error = U_ZERO_ERROR;
    const UNormalizer2 *normalizer = unorm2_getNFKCInstance(&error);
    return normalize(normalizer, error, text, length, out, capacity);
}
