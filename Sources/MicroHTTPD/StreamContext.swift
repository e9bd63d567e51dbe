/// Carried by a streaming response: the body and the exchange it belongs to.
final class StreamContext {
    let body: any HTTPStreamBody
    let exchange: HTTPExchange

    init(body: any HTTPStreamBody, exchange: HTTPExchange) {
        self.body = body
        self.exchange = exchange
    }
}
