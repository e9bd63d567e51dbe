import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// libmicrohttpd's callbacks into the daemon: accepting, each request's
// calls (a new exchange, its body, its dispatch to the handler), its end,
// and the daemon's log. Their `cls` is the daemon's ``DaemonContext``.

let acceptPolicy: MHD_AcceptPolicyCallback = { cls, address, _ in
    guard let cls else { return .NO }
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    guard context.accepting.load(ordering: .acquiring) else { return .NO }
    guard let admission = context.configuration.admission, let address else { return .YES }
    return admission.admits(address) ? .YES : .NO
}

let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadDataSize, connectionContext in
    guard let cls, let connection, let connectionContext, let uploadDataSize else { return .NO }
    // The daemon's context outlives the daemon, and an exchange its request
    // (`connectionContext` holds it until `requestCompleted`): both are
    // guaranteed here, and read without a retain of their own.
    return Unmanaged<DaemonContext>.fromOpaque(cls)._withUnsafeGuaranteedRef { context in
        // The URI callback's marks: a query it cut off (too many parameters), an escaped target.
        let marks = sb_target_marks(connectionContext.pointee)
        if marks != 0 { connectionContext.pointee = nil }
        guard let existing = connectionContext.pointee else {
            return startExchange(connection, method: method, url: url, version: version, marks: marks, in: connectionContext, context: context)
        }
        return Unmanaged<HTTPExchange>.fromOpaque(existing)._withUnsafeGuaranteedRef { exchange in
            continueExchange(exchange, uploadData: uploadData, uploadDataSize: uploadDataSize, context: context)
        }
    }
}

/// An access handler's first call (headers only): creates the exchange and
/// refuses an announced oversized body before reading any of it.
private func startExchange(_ connection: OpaquePointer, method: UnsafePointer<CChar>?, url: UnsafePointer<CChar>?,
                           version: UnsafePointer<CChar>?, marks: UInt32,
                           in connectionContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
                           context: DaemonContext) -> MHD_Result {
    // A path that is not UTF-8 once decoded is refused, not repaired into U+FFFD.
    let path: String? = if let url { String(validatingCString: url) } else { "/" }
    let absolute = path.flatMap(AbsoluteFormTarget.init)
    let exchange = HTTPExchange(connection: connection, method: method.map(methodName) ?? "", path: absolute?.path ?? path ?? "/",
                                daemon: context)
    exchange.targetAuthority = absolute?.authority
    exchange.tooManyParameters = marks & UInt32(SB_TARGET_CUT_QUERY) != 0
    exchange.targetNotUTF8 = path == nil || marks & UInt32(SB_TARGET_NUL) != 0
        || (marks & UInt32(SB_TARGET_ESCAPED) != 0 && !exchange.queryIsUTF8())
    exchange.isHTTP10 = sb_is_http10(version) != 0
    connectionContext.pointee = Unmanaged.passRetained(exchange).toOpaque()
    // Framing another parser could read otherwise, or a missing, doubled or
    // malformed Host: answered before any body, and the connection closed.
    var contentLength: Int64 = -1
    switch sb_head_refusal(connection, version, &contentLength) {
    case SB_HEAD_AMBIGUOUS_FRAMING:
        exchange.framingIsAmbiguous = true
        return dispatch(exchange, context: context)
    case SB_HEAD_BAD_HOST:
        exchange.hostIsInvalid = true
        return dispatch(exchange, context: context)
    default:
        break
    }
    switch context.handler.bodyReading(for: exchange) {
    case .buffer:
        // The Content-Length the head's pass read (-1: none, or not a number).
        if contentLength > context.configuration.maxBodyBytes {
            exchange.bodyTooLarge = true
            return dispatch(exchange, context: context)
        }
    case .stream(let sink):
        exchange.bodySink = sink
        exchange.watchBodyHangup()
    case .multipart(let field, let sink):
        exchange.bodySink = sink
        exchange.watchBodyHangup()
        exchange.multipartField = field
        exchange.postProcessor = MHD_create_post_processor(connection, 16 * 1024, multipartIterator,
                                                           Unmanaged.passUnretained(exchange).toOpaque())
        if exchange.postProcessor == nil {
            exchange.bodyFailure = "The body is not multipart/form-data with a boundary."
            return dispatch(exchange, context: context)
        }
    case .refuse:
        return dispatch(exchange, context: context)
    }
    return .YES
}

/// An access handler's later calls: a piece of the body, or its end.
private func continueExchange(_ exchange: HTTPExchange, uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>,
                              context: DaemonContext) -> MHD_Result {
    if uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        if exchange.started { return .YES }  // a response is already queued; drop the rest
        if let sink = exchange.bodySink, let uploadData {
            // A streamed body: each piece to its sink (or through the
            // multipart reader). libmicrohttpd takes no answer before the
            // body has ended, so the rest of a refused one is read and
            // thrown away (the handler answers at its end), or the
            // connection is closed if it goes on far past the point.
            if exchange.bodyFailure != nil {
                exchange.discardedBytes += count
                return exchange.discardedBytes > context.configuration.maxDiscardedBodyBytes ? .NO : .YES
            }
            if let processor = exchange.postProcessor {
                if MHD_post_process(processor, uploadData, count) != .YES, exchange.bodyFailure == nil {
                    exchange.bodyFailure = sink.refusal ?? "The multipart body could not be read."
                }
            } else if !sink.write(UnsafeRawBufferPointer(start: uploadData, count: count)) {
                exchange.bodyFailure = sink.refusal ?? "The body was refused."
            }
            return .YES
        }
        if exchange.bodyTooLarge || exchange.body.count + count > context.configuration.maxBodyBytes {
            // Chunked body past the limit: keep nothing more, and answer 413 at
            // its end, as for a streamed body refused part-way; hang up only if it
            // goes on past that bound. (16 times the limit hung up on a 2 MB
            // publish with no answer: curl said "Empty reply from server".)
            exchange.bodyTooLarge = true
            exchange.body = []
            exchange.discardedBytes += count
            return exchange.discardedBytes > context.configuration.maxDiscardedBodyBytes ? .NO : .YES
        }
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { pointer in
                exchange.body.append(contentsOf: UnsafeBufferPointer(start: pointer, count: count))
            }
        }
        return .YES
    }
    if let processor = exchange.postProcessor {
        // The end of a multipart body: what the reader still holds goes out first.
        exchange.postProcessor = nil
        if MHD_destroy_post_processor(processor) != .YES, exchange.bodyFailure == nil, exchange.bodySink != nil {
            exchange.bodyFailure = exchange.bodySink?.refusal ?? "The multipart body ended part-way."
        }
        if exchange.bodyFailure == nil, exchange.multipartParts == 0 {
            exchange.bodyFailure = "The form has no '\(exchange.multipartField ?? "")' part."
        }
    }
    return dispatch(exchange, context: context)
}

/// libmicrohttpd's post processor hands each piece of each part here: the
/// exchange's field goes to its sink, once; every other part is skipped.
let multipartIterator: MHD_PostDataIterator = { cls, _, key, fileName, contentType, _, data, offset, size in
    guard let cls else { return .NO }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(cls).takeUnretainedValue()
    guard let sink = exchange.bodySink, let key, String(cString: key) == exchange.multipartField else { return .YES }
    if offset == 0 {
        exchange.multipartParts += 1
        guard exchange.multipartParts == 1 else {
            exchange.bodyFailure = "The form has more than one '\(exchange.multipartField ?? "")' part; send one file at a time."
            return .NO
        }
        guard sink.begin(fileName: fileName.map { String(cString: $0) }, contentType: contentType.map { String(cString: $0) }) else {
            exchange.bodyFailure = sink.refusal ?? "The file was refused."
            return .NO
        }
    }
    guard size > 0, let data else { return .YES }
    guard sink.write(UnsafeRawBufferPointer(start: data, count: size)) else {
        exchange.bodyFailure = sink.refusal ?? "The file was refused."
        return .NO
    }
    return .YES
}

func dispatch(_ exchange: HTTPExchange, context: DaemonContext) -> MHD_Result {
    exchange.started = true
    if exchange.bodySink != nil { exchange.unwatchHangup() }  // the body is in: its watch ends
    let result: HTTPHandlerResult
    if let continuation = exchange.continuation {
        exchange.unwatchHangup()
        exchange.continuation = nil
        result = continuation.resumed(exchange)
    } else {
        result = context.handler.handle(exchange)
    }
    switch result {
    case .suspended, .askedAgain:
        return .YES
    case .respond(let response):
        return queue(response, on: exchange)
    }
}

let requestCompleted: MHD_RequestCompletedCallback = { _, _, connectionContext, reason in
    guard let connectionContext, let pointer = connectionContext.pointee else { return }
    connectionContext.pointee = nil
    // A request marked by the URI callback that never reached the handler holds no exchange.
    guard sb_target_marks(pointer) == 0 else { return }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(pointer).takeRetainedValue()
    if let processor = exchange.postProcessor {
        exchange.postProcessor = nil
        _ = MHD_destroy_post_processor(processor)
    }
    // A streamed body nobody took (the client left part-way): nothing of it is kept.
    exchange.takeBodySink()?.abandon()
    exchange.unwatchHangup()
    let completion: HTTPCompletion
    switch reason {
    case .REQUEST_TERMINATED_COMPLETED_OK: completion = .completed
    case .REQUEST_TERMINATED_TIMEOUT_REACHED: completion = .timedOut
    case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: completion = .shutdown
    default: completion = .failed
    }
    exchange.runCompletionHandlers(completion)
    exchange.continuation = nil
    exchange.upgradeHandler = nil
}

let daemonLogger: MHD_LogCallback = { cls, format, arguments in
    guard let cls, let format, let arguments else { return }
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    var buffer = [CChar](repeating: 0, count: 1024)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    var message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    while message.last?.isNewline == true { message.removeLast() }
    if LibraryMessages.stoppedAccepting(message) { context.loop.acceptingStopped() }
    context.configuration.log?(message)
}

/// A request's method: one of HTTP's own as the literal it is (a string
/// made, checked and freed for every request otherwise), any other as it came.
func methodName(_ method: UnsafePointer<CChar>) -> String {
    switch UInt8(bitPattern: method.pointee) {
    case UInt8(ascii: "G") where strcmp(method, "GET") == 0: return "GET"
    case UInt8(ascii: "P") where strcmp(method, "POST") == 0: return "POST"
    case UInt8(ascii: "P") where strcmp(method, "PUT") == 0: return "PUT"
    case UInt8(ascii: "P") where strcmp(method, "PATCH") == 0: return "PATCH"
    case UInt8(ascii: "H") where strcmp(method, "HEAD") == 0: return "HEAD"
    case UInt8(ascii: "D") where strcmp(method, "DELETE") == 0: return "DELETE"
    case UInt8(ascii: "O") where strcmp(method, "OPTIONS") == 0: return "OPTIONS"
    default: return String(cString: method)
    }
}
