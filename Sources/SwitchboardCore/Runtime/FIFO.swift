/// A first-in, first-out queue on an array: taken from a head index, the
/// taken part dropped once it is all of the array or most of a long one
/// (no shifting at every take, no growth without bound).
struct FIFO<Element> {
    private var items: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }

    mutating func append(_ item: Element) {
        items.append(item)
    }

    /// The oldest, or nil when empty.
    mutating func removeFirst() -> Element? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}
