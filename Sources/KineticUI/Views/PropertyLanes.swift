/// The model lanes of one ``AnimatableProperty`` (one to six doubles; up to eight fit), held inline: what an
/// animations block captures per changed property, before its first write and when it
/// returns, without an array allocation for each.
struct PropertyLanes: RandomAccessCollection, Equatable {
    /// The lanes in the first `count` elements; the rest are zero.
    private var storage = SIMD8<Double>()
    let count: Int

    /// No lanes (a change whose target is not yet read).
    init() { count = 0 }

    /// One lane.
    init(_ a: Double) {
        storage[0] = a
        count = 1
    }

    /// Two lanes.
    init(_ a: Double, _ b: Double) {
        storage[0] = a
        storage[1] = b
        count = 2
    }

    /// Four lanes.
    init(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
        storage[0] = a
        storage[1] = b
        storage[2] = c
        storage[3] = d
        count = 4
    }

    /// The lanes of `values` (at most eight).
    init(_ values: UnsafeBufferPointer<Double>) {
        precondition(values.count <= 8, "at most eight lanes")
        for j in values.indices { storage[j] = values[j] }
        count = values.count
    }

    /// `property`'s lanes in a view's model storage.
    init(_ property: AnimatableProperty, in modelLanes: ModelLanes) {
        count = property.laneCount
        let offset = property.offset
        for j in 0 ..< count { storage[j] = modelLanes[offset + j] }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Double {
        precondition(position >= 0 && position < count, "lane index out of range")
        return storage[position]
    }

    /// Equal when they have the same number of lanes and equal values lane by lane (as
    /// arrays of `Double` compare: −0 equals +0).
    static func == (a: PropertyLanes, b: PropertyLanes) -> Bool {
        guard a.count == b.count else { return false }
        for j in 0 ..< a.count where a.storage[j] != b.storage[j] { return false }
        return true
    }

    /// Lane by lane `a + b`, with `a`'s lanes (`b` may have none: it adds nothing).
    static func + (a: PropertyLanes, b: PropertyLanes) -> PropertyLanes {
        var sum = a
        sum.storage = a.storage + b.storage
        return sum
    }

    /// Lane by lane `a − b`, with `a`'s lanes (`b` may have none: it takes nothing away).
    static func - (a: PropertyLanes, b: PropertyLanes) -> PropertyLanes {
        var difference = a
        difference.storage = a.storage - b.storage
        return difference
    }

    /// Calls `body` with the lanes as a buffer (valid only during the call).
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: storage) { raw in
            try body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: Double.self), count: count))
        }
    }
}
