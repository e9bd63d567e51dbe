import CVips
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SwitchboardCore

/// Photos made safe to keep with libvips (Debian's libvips-dev, behind the
/// C wall of `CVips`): each format read by its own loader, orientation
/// applied, re-encoded with no metadata, a thumbnail made by shrink-on-load.
/// libvips is started once, with the first photo (a server that is never
/// sent one never loads it: about 200 million instructions and its
/// modules' memory at start), with one thread per image and no cache.
public final class VipsImages: ImageProcessing {
    public init() {}

    private static let started: Bool = sb_vips_start() == 0

    public func clean(_ path: String, type: MediaType, thumbnailSize: Int, maxPixels: Int64) throws -> CleanedImage {
        guard Self.started else { throw SwitchboardError.storeUnavailable("libvips could not start") }
        let format: sb_image_format
        switch type {
        case .jpeg: format = SB_IMAGE_JPEG
        case .png: format = SB_IMAGE_PNG
        case .gif: format = SB_IMAGE_GIF
        case .webp: format = SB_IMAGE_WEBP
        default: throw SwitchboardError.unsupportedMedia("Not an image.")
        }
        let cleanPath = path + ".clean." + type.fileExtension
        let thumbnailBase = path + ".thumbnail"
        var width: Int32 = 0
        var height: Int32 = 0
        let cleaned = sb_vips_clean(path, format, cleanPath, maxPixels, &width, &height)
        guard cleaned == 0 else {
            unlink(cleanPath)
            if cleaned == -2 {
                throw SwitchboardError.unsupportedMedia("The image is too large: more than \(maxPixels) pixels (an animation's frames together).")
            }
            _ = Self.lastError()  // libvips keeps one buffer per process: cleared for the next photo
            throw SwitchboardError.unsupportedMedia("The image could not be read as \(type.mimeType).")
        }
        var png: Int32 = 0
        guard sb_vips_thumbnail(cleanPath, thumbnailBase + ".jpg", thumbnailBase + ".png", Int32(thumbnailSize), &png) == 0 else {
            _ = Self.lastError()
            unlink(cleanPath)
            unlink(thumbnailBase + ".jpg")
            unlink(thumbnailBase + ".png")
            throw SwitchboardError.unsupportedMedia("No thumbnail could be made of the image.")
        }
        var status = stat()
        stat(cleanPath, &status)
        return CleanedImage(path: cleanPath, size: Int64(status.st_size), width: Int(width), height: Int(height),
                            thumbnailPath: thumbnailBase + (png != 0 ? ".png" : ".jpg"),
                            thumbnailType: png != 0 ? "image/png" : "image/jpeg")
    }

    private static func lastError() -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        sb_vips_error(&buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
