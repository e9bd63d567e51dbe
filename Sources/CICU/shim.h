// ICU (Debian's libicu-dev): Unicode TR39 confusable skeletons (uspoof) and
// NFKC with case folding (unorm2), for comparing user names as a reader sees
// them. Only NameSecurity imports this module.
#ifndef SWITCHBOARD_CICU_SHIM_H
#define SWITCHBOARD_CICU_SHIM_H

#include <stdint.h>
#include <unicode/utypes.h>
#include <unicode/uspoof.h>
#include <unicode/unorm2.h>

/// A spoof checker for skeletons, or NULL (with the ICU error in `status`).
/// Thread-safe to use from any thread once made (uspoof_getSkeleton is const).
static inline USpoofChecker *
sb_spoof_open(int32_t *status)
{
    UErrorCode error = U_ZERO_ERROR;
    USpoofChecker *checker = uspoof_open(&error);
    *status = (int32_t)error;
    return U_SUCCESS(error) ? checker : NULL;
}

static inline void sb_spoof_close(USpoofChecker *checker) { uspoof_close(checker); }

/// TR39's skeleton of `text` (UTF-16, `length` units) into `out` (`capacity`
/// units). Returns the skeleton's length; when it exceeds `capacity`, call
/// again with more. -1 on any other error.
static inline int32_t
sb_spoof_skeleton(const USpoofChecker *checker, const UChar *text, int32_t length, UChar *out, int32_t capacity)
{
    UErrorCode error = U_ZERO_ERROR;
    int32_t written = uspoof_getSkeleton(checker, 0, text, length, out, capacity, &error);
    if (error == U_BUFFER_OVERFLOW_ERROR) return written;
    return U_SUCCESS(error) ? written : -1;
}

/// NFKC_Casefold of `text` into `out`: compatibility forms folded (full-width,
/// ℓ), case folded, default-ignorable code points removed. Same conventions.
static inline int32_t
sb_nfkc_casefold(const UChar *text, int32_t length, UChar *out, int32_t capacity)
{
    UErrorCode error = U_ZERO_ERROR;
    const UNormalizer2 *normalizer = unorm2_getNFKCCasefoldInstance(&error);
    if (U_FAILURE(error)) return -1;
    int32_t written = unorm2_normalize(normalizer, text, length, out, capacity, &error);
    if (error == U_BUFFER_OVERFLOW_ERROR) return written;
    return U_SUCCESS(error) ? written : -1;
}

/// NFKC of `text` into `out` (the form a name is kept in). Same conventions.
static inline int32_t
sb_nfkc(const UChar *text, int32_t length, UChar *out, int32_t capacity)
{
    UErrorCode error = U_ZERO_ERROR;
    const UNormalizer2 *normalizer = unorm2_getNFKCInstance(&error);
    if (U_FAILURE(error)) return -1;
    int32_t written = unorm2_normalize(normalizer, text, length, out, capacity, &error);
    if (error == U_BUFFER_OVERFLOW_ERROR) return written;
    return U_SUCCESS(error) ? written : -1;
}

#endif
