/// Errors of ``BatchStore`` and ``KeyframeBatch``.
public enum BatchStoreError: Error, Equatable, CustomStringConvertible {
    /// The handle's entry was removed: its slot is free or now holds a newer entry (the
    /// slot's generation differs from the handle's). A handle from another store is only
    /// caught when its slot or generation does not exist in this one.
    case staleHandle(index: Int, generation: Int)
    /// The operation does not apply to the handle's kind of entry (e.g. a per-lane progress
    /// buffer for a shared-progress group).
    case wrongKind(expected: BatchStore.EntryKind, actual: BatchStore.EntryKind)
    /// Track `track` has other key times or segment shapes (hold; linear, eased or not;
    /// cubic) than the first track. Easing curves may differ.
    case structureMismatch(track: Int)
    /// Track `track` uses paced cubic segments, which are re-parametrised per track and
    /// cannot share a basis.
    case unsupportedInterpolation(track: Int)
    /// A result of finite input is beyond the range of `Double` (|value| > 1.8e308): lane
    /// `lane`'s `quantity` (a spring's "displacement" or "velocity" after the step, or the
    /// "value" a lane would take). `lane` counts within the entry or group that was being
    /// stepped or evaluated; a ``BatchStore`` reports it as the lane's index in its output
    /// (as ``BatchStore/range(of:)`` counts). Nothing was changed.
    case overflow(lane: Int, quantity: String)

    public var description: String {
        switch self {
        case .staleHandle(let index, let generation):
            return "stale handle (slot \(index), generation \(generation)): its entry was removed"
        case .wrongKind(let expected, let actual):
            return "the handle refers to a \(actual) entry, but this operation needs a \(expected) entry"
        case .structureMismatch(let track):
            return "tracks[\(track)] has other key times or segment shapes than tracks[0]"
        case .unsupportedInterpolation(let track):
            return "tracks[\(track)] uses paced cubic segments, which cannot be batched"
        case .overflow(let lane, let quantity):
            return "lane \(lane): the \(quantity) would be beyond the range of Double (magnitude above 1.8e308); nothing was changed"
        }
    }
}
