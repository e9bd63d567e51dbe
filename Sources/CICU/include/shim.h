// ICU (Debian's libicu-dev) for comparing user names as a reader sees
// them: Unicode TR39 confusable skeletons (uspoof) and NFKC with case
// folding (unorm2). Only NameSecurity imports this module.
//
// No ICU type crosses this header: Foundation carries an ICU of its own
// (_FoundationICU) whose headers define the same C types differently, and a
// Swift module that saw both would not build. Text is UTF-16 as uint16_t,
// the checker an opaque pointer; shim.c is the only file that includes ICU.
#ifndef SWITCHBOARD_CICU_SHIM_H
#define SWITCHBOARD_CICU_SHIM_H

#include <stdint.h>

/// A spoof checker for skeletons, or NULL. Usable from any thread once
/// made (uspoof_getSkeleton only reads it).
void *sb_spoof_open(void);

void sb_spoof_close(void *checker);

/// TR39's skeleton of `text` (`length` UTF-16 units) into `out`
/// (`capacity` units). Returns the skeleton's length, which is more than
/// `capacity` when it did not fit (call again with more); -1 on any other error.
int32_t sb_spoof_skeleton(const void *checker, const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity);

/// NFKC_Casefold of `text` into `out`: compatibility forms folded
/// (full-width, ℓ), case folded, default-ignorable code points removed.
/// Same conventions.
int32_t sb_nfkc_casefold(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity);

/// NFKC of `text` into `out` (the form a name is kept in). Same conventions.
int32_t sb_nfkc(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity);

#endif
