// Thin, non-variadic wrappers over libvips (Debian's libvips-dev) so that
// Swift can call it: start-up, and the two things Switchboard asks of it
// (a photo re-encoded without its metadata, a thumbnail). Nothing here knows
// about chat; SwitchboardMedia (Swift) is the only importer.
#ifndef SWITCHBOARD_CVIPS_SHIM_H
#define SWITCHBOARD_CVIPS_SHIM_H

#include <vips/vips.h>

/// The image formats Switchboard accepts; each is read by its own loader,
/// never by libvips's guess (which would reach loaders for formats we refuse).
typedef enum {
    SB_IMAGE_JPEG = 0,
    SB_IMAGE_PNG = 1,
    SB_IMAGE_GIF = 2,
    SB_IMAGE_WEBP = 3,
} sb_image_format;

/// Starts libvips once: one worker thread per image, no operation cache (a
/// chat server never asks twice), and the loaders libvips marks untrusted
/// (ImageMagick's, MATLAB's, ...) blocked. 0 on success.
static inline int sb_vips_start(void) {
    if (VIPS_INIT("switchboard")) return -1;
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_block_untrusted_set(TRUE);
    return 0;
}

/// The last error's text (libvips keeps one buffer per process), then cleared.
static inline void sb_vips_error(char *out, size_t size) {
    const char *text = vips_error_buffer();
    snprintf(out, size, "%s", text ? text : "");
    vips_error_clear();
}

static inline VipsImage *sb_vips_load(const char *path, sb_image_format format) {
    VipsImage *image = NULL;
    int failed = -1;
    switch (format) {
    case SB_IMAGE_JPEG: failed = vips_jpegload(path, &image, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL); break;
    case SB_IMAGE_PNG: failed = vips_pngload(path, &image, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL); break;
    case SB_IMAGE_GIF: failed = vips_gifload(path, &image, "n", -1, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL); break;
    case SB_IMAGE_WEBP: failed = vips_webpload(path, &image, "n", -1, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL); break;
    }
    return failed ? NULL : image;
}

static inline int sb_vips_save(VipsImage *image, const char *path, sb_image_format format) {
    switch (format) {
    case SB_IMAGE_JPEG: return vips_jpegsave(image, path, "strip", TRUE, "Q", 85, NULL);
    case SB_IMAGE_PNG: return vips_pngsave(image, path, "strip", TRUE, NULL);
    case SB_IMAGE_GIF: return vips_gifsave(image, path, "strip", TRUE, NULL);
    case SB_IMAGE_WEBP: return vips_webpsave(image, path, "strip", TRUE, "Q", 85, NULL);
    }
    return -1;
}

/// Reads the image at `in` (of `format`), applies its EXIF orientation
/// (single-frame images; an animation has none), and writes it to `out` in
/// the same format with no metadata (EXIF, GPS, XMP, ICC comments).
/// Refuses an image over `max_pixels` before decoding it, an animation's
/// frames counted together (a 1 KB GIF can hold 50 frames of 2000 x 2000:
/// 200 million pixels, 14 s of a core). Sets the result's width and height
/// (one frame's, for an animation). 0 on success, -2 when too large (the
/// caller says so: no libvips error is set).
static inline int sb_vips_clean(const char *in, sb_image_format format, const char *out, long long max_pixels,
                                int *width, int *height) {
    VipsImage *image = sb_vips_load(in, format);
    if (!image) return -1;
    int frame_height = vips_image_get_page_height(image);
    long long frames = vips_image_get_n_pages(image);
    long long frame_pixels = (long long)vips_image_get_width(image) * (long long)frame_height;  /* < 2^62: no overflow */
    if (frame_pixels > max_pixels || (frame_pixels > 0 && (frames < 1 ? 1 : frames) > max_pixels / frame_pixels)) {
        g_object_unref(image);
        return -2;
    }
    VipsImage *upright = NULL;
    int pages = vips_image_get_n_pages(image);
    if (pages <= 1) {
        if (vips_autorot(image, &upright, NULL)) { g_object_unref(image); return -1; }
        g_object_unref(image);
    } else {
        upright = image;
    }
    int failed = sb_vips_save(upright, out, format);
    *width = vips_image_get_width(upright);
    *height = pages <= 1 ? vips_image_get_height(upright) : vips_image_get_page_height(upright);
    g_object_unref(upright);
    return failed;
}

/// Writes a thumbnail of the (already upright, clean) image at `in` to `out`:
/// at most `size` pixels on its longer side, never enlarged, first frame,
/// JPEG (PNG when it has transparency). Sets `*png` to say which. 0 on success.
static inline int sb_vips_thumbnail(const char *in, const char *out_jpeg, const char *out_png, int size, int *png) {
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail(in, &thumbnail, size, "height", size, "size", VIPS_SIZE_DOWN, NULL)) return -1;
    int failed;
    if (vips_image_hasalpha(thumbnail)) {
        *png = 1;
        failed = vips_pngsave(thumbnail, out_png, "strip", TRUE, NULL);
    } else {
        *png = 0;
        failed = vips_jpegsave(thumbnail, out_jpeg, "strip", TRUE, "Q", 80, NULL);
    }
    g_object_unref(thumbnail);
    return failed;
}

#endif
