/// The bookkeeping of the engine's entries (internal): the generation-checked slot table behind
/// its handles, and per kind of entry a compact, ordered list of entries over a contiguous
/// range of lanes.
///
/// Removing an entry frees its slot (bumping the slot's generation, so every handle to it
/// goes stale) and closes the gap in its section's lane arrays; freed slots are reused
/// first. Nothing here ever shrinks an array's capacity, and nothing grows one beyond what
/// the largest number of live entries / lanes so far needed, so add/remove churn runs in
/// bounded memory.
struct StoreSlots {
    struct Slot {
        var generation: UInt32
        var kind: BatchStore.EntryKind
        /// The entry's index in its section, or −1 while the slot is free.
        var entry: Int
    }

    private(set) var slots: [Slot] = []
    private var free: [Int] = []

    /// The number of slots ever needed at once (the table never shrinks).
    var capacity: Int { slots.count }

    /// Takes a free slot (or a new one) for an entry of `kind` at section index `entry`.
    mutating func acquire(kind: BatchStore.EntryKind, entry: Int) -> BatchStore.Handle {
        let index: Int
        if let reused = free.popLast() {
            index = reused
            slots[index].kind = kind
            slots[index].entry = entry
        } else {
            index = slots.count
            slots.append(Slot(generation: 0, kind: kind, entry: entry))
        }
        return BatchStore.Handle(kind: kind, index: UInt32(index), generation: slots[index].generation)
    }

    /// The live slot of `handle`.
    /// - Throws: ``BatchStoreError/staleHandle(index:generation:)`` when the slot is free or
    ///   was reused since the handle was made.
    func resolve(_ handle: BatchStore.Handle) throws(BatchStoreError) -> Slot {
        let index = Int(handle.index)
        guard index < slots.count, slots[index].generation == handle.generation, slots[index].entry >= 0 else {
            throw .staleHandle(index: index, generation: Int(handle.generation))
        }
        return slots[index]
    }

    /// Frees the slot of a resolved handle; every handle to it becomes stale.
    mutating func release(_ handle: BatchStore.Handle) {
        let index = Int(handle.index)
        slots[index].generation &+= 1
        slots[index].entry = -1
        free.append(index)
    }

    /// Records that the entry in `slot` now sits at section index `entry`.
    mutating func move(slot: Int, to entry: Int) {
        slots[slot].entry = entry
    }
}

/// One entry of a store section: the slot that owns it, its lanes within the section, and
/// its kind-specific payload.
struct StoreEntry<Payload> {
    var slot: Int
    var offset: Int
    var count: Int
    var payload: Payload
}

/// The entries of one kind, in lane order, with no gaps (lanes `0 ..< laneCount`).
struct StoreSection<Payload> {
    var entries: [StoreEntry<Payload>] = []
    private(set) var laneCount = 0

    /// Appends an entry of `count` lanes at the end; returns its index.
    mutating func append(slot: Int, count: Int, payload: Payload) -> Int {
        entries.append(StoreEntry(slot: slot, offset: laneCount, count: count, payload: payload))
        laneCount += count
        return entries.count - 1
    }

    /// Removes entry `index`, moving later entries down (their offsets by its lane count,
    /// their indices by one; `moved(slot, newIndex)` is called for each). Returns the lanes
    /// it occupied, which the caller removes from its lane arrays.
    mutating func remove(at index: Int, moved: (Int, Int) -> Void) -> Range<Int> {
        let removed = entries.remove(at: index)
        for i in index ..< entries.count {
            entries[i].offset -= removed.count
            moved(entries[i].slot, i)
        }
        laneCount -= removed.count
        return removed.offset ..< removed.offset + removed.count
    }
}
