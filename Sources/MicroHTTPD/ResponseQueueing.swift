import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// A response handed to libmicrohttpd: bytes, a shared response, a streaming
// body read through a content reader, a file, or an upgrade; plus the
// exchange's own headers.

func queue(_ response: HTTPResponse, on exchange: HTTPExchange) -> MHD_Result {
    let created: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        created = makeResponse(bytes: bytes, headers: [])
    case .shared(let shared):
        if let made = shared.response, response.headers.isEmpty, exchange.responseHeaders.isEmpty {
            // libmicrohttpd takes a reference of its own: the response is not ours to destroy here.
            return MHD_queue_response(exchange.connection, UInt32(response.status), made)
        }
        created = makeResponse(bytes: shared.bytes, headers: shared.headers)
    case .stream(let body, let blockSize):
        let streamContext = Unmanaged.passRetained(StreamContext(body: body, exchange: exchange))
        created = MHD_create_response_from_callback(sb_size_unknown(), blockSize, streamReader, streamContext.toOpaque(), streamFree)
        if created == nil {
            streamContext.release()
            body.finish()
        } else {
            exchange.watchHangup { body.clientLeft() }
        }
    case .file(let descriptor, let offset, let length):
        created = MHD_create_response_from_fd_at_offset64(UInt64(length), descriptor, UInt64(offset))
        if created == nil { close(descriptor) }
    case .upgrade(let handler):
        // The exchange is the callback's context: it lives until the request
        // completes, which for an upgraded connection is after the handover,
        // and for a client gone before the 101 frees the handler with it.
        exchange.upgradeHandler = handler
        created = MHD_create_response_for_upgrade(upgradeHandler, Unmanaged.passUnretained(exchange).toOpaque())
    }
    guard let created else { return .NO }
    addHeaders(response.headers, to: created)
    addHeaders(exchange.responseHeaders, to: created)
    let result = MHD_queue_response(exchange.connection, UInt32(response.status), created)
    MHD_destroy_response(created)
    return result
}

/// A libmicrohttpd response holding a copy of `bytes`, with `headers`.
func makeResponse(bytes: [UInt8], headers: [(name: String, value: String)]) -> OpaquePointer? {
    let created = bytes.withUnsafeBytes { buffer in
        MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
    }
    if let created { addHeaders(headers, to: created) }
    return created
}

/// Adds `headers` to a response not yet queued.
func addHeaders(_ headers: [(name: String, value: String)], to response: OpaquePointer) {
    // withCString, not the implicit conversion, which copies each String
    // into an array of its own: a native string is NUL-terminated already.
    for (name, value) in headers {
        _ = name.withCString { name in value.withCString { value in MHD_add_response_header(response, name, value) } }
    }
}

let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
    // The response holds its context (released in `streamFree`) while
    // libmicrohttpd reads it: guaranteed, so read without a retain of its
    // own and of each field (four pairs a call, two calls an SSE delivery).
    return Unmanaged<StreamContext>.fromOpaque(cls)._withUnsafeGuaranteedRef { context in
        switch context.body.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max), exchange: context.exchange) {
        case .wrote(let count): return count
        case .suspended: return 0
        case .end: return MHD_CONTENT_READER_END_OF_STREAM
        case .abort: return MHD_CONTENT_READER_END_WITH_ERROR
        }
    }
}

let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let context = Unmanaged<StreamContext>.fromOpaque(cls).takeRetainedValue()
    context.body.finish()
}
