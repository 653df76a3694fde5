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

    mutating func append(_ element: Element) {
        if case .none = head { head = element } else { tail.append(element) }
    }

    /// Empties the list and returns what it held (see `exchange(_:with:)`: the elements'
    /// last release then runs in the caller, after the write).
    @discardableResult
    mutating func removeAll() -> InlineList {
        exchange(&self, with: InlineList())
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

/// Puts `replacement` in `value`'s place and returns the old value, so that the old value's
/// last release happens in the caller, after the write. That release can run user code (the
/// deinit of an object that a dropped closure captured, or of a view subclass), which may call
/// back into the owner and reach the same storage: the animator's lists are
/// `@exclusivity(unchecked)`, so no access to them may be in progress then.
func exchange<T>(_ value: inout T, with replacement: consuming T) -> T {
    // Moved, not copied: no retain and release of what the value holds.
    swap(&value, &replacement)
    return replacement
}
