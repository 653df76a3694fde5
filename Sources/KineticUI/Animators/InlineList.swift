/// A list that holds its first element inline and the rest in an array: an animator's
/// animations blocks and completion handlers, of which most animators have one each, which
/// then cost no array allocation. Iterates in the order appended.
struct InlineList<Element>: Sequence {
    private var head: Element?
    private var tail: [Element] = []

    init() {}

    /// Whether the list has no element.
    var isEmpty: Bool {
        if case .none = head { return true }
        return false
    }

    /// The number of elements.
    var count: Int { isEmpty ? 0 : 1 + tail.count }

    mutating func append(_ element: Element) {
        if case .none = head { head = element } else { tail.append(element) }
    }

    mutating func removeAll() {
        head = nil
        tail = []
    }

    func makeIterator() -> Iterator { Iterator(list: self) }

    struct Iterator: IteratorProtocol {
        let list: InlineList
        var index = 0

        mutating func next() -> Element? {
            defer { index += 1 }
            return index == 0 ? list.head : index - 1 < list.tail.count ? list.tail[index - 1] : nil
        }
    }
}
