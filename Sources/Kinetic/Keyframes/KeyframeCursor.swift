/// A remembered position in a ``KeyframeTrack`` that makes the next look-up cheap.
///
/// Keep one cursor per track (per animated property) and pass it to
/// ``KeyframeTrack/value(at:cursor:)`` each frame. When progress moves a little, forward
/// or back, the look-up checks the remembered segment and walks to a neighbour (O(1));
/// after a larger jump it falls back to a binary search (O(log n)). A cursor is only a
/// hint: any cursor (fresh, stale, or from another track) gives the same values as
/// ``KeyframeTrack/value(at:)``.
public struct KeyframeCursor: Sendable, Hashable {
    /// The index of the segment (the keyframe it starts at) used last.
    public internal(set) var segment: Int

    /// A cursor at the first segment.
    public init() {
        segment = 0
    }
}

/// Where a progress value falls in a track (internal).
enum KeyframeLocation: Equatable {
    /// Exactly the value of keyframe `index`.
    case key(Int)
    /// Inside (or, for extrapolation, beyond) segment `index` at local progress `fraction`.
    case segment(Int, fraction: Double)
}

enum KeyframeLookup {
    /// How many neighbouring segments the cursor walks before it binary-searches.
    static let walkLimit = 3

    /// Locates `progress` in non-decreasing `times` (count ≥ 1), applying the Web
    /// Animations rules: at a repeated time the last keyframe there starts the segment;
    /// below 0 / above 1 the first / last segment is extrapolated when exactly one
    /// keyframe sits at 0 / 1, otherwise the first / last value holds. NaN gives key 0.
    @inline(__always)
    static func locate(
        _ progress: Double, in times: UnsafeBufferPointer<Double>, cursor: inout Int, useCursor: Bool
    ) -> KeyframeLocation {
        let n = times.count
        if n == 1 { return .key(0) }
        // Most look-ups land in the cursor's own segment (what the walk finds first): test it
        // before the ends' cases. times[c] <= p < times[c + 1] puts p inside [first, last).
        if useCursor {
            let c = cursor
            if c >= 0, c <= n &- 2, times[c] <= progress, progress < times[c &+ 1] {
                let start = times[c]
                return .segment(c, fraction: (progress - start) / (times[c &+ 1] - start))
            }
        }
        let first = times[0], last = times[n - 1]
        if !(progress >= first) {
            if progress < 0 && first == 0 && times[1] > 0 {
                cursor = 0
                return .segment(0, fraction: progress / times[1])
            }
            return .key(0)
        }
        if progress >= last {
            let before = times[n - 2]
            if progress > 1 && last == 1 && before < 1 {
                cursor = n - 2
                return .segment(n - 2, fraction: (progress - before) / (1 - before))
            }
            return .key(n - 1)
        }
        // times[0] <= progress < times[n - 1]: find i in 0 ... n-2 with t[i] <= p < t[i+1].
        let i = useCursor ? walk(progress, times, from: cursor) : search(progress, times)
        cursor = i
        let start = times[i]
        return .segment(i, fraction: (progress - start) / (times[i + 1] - start))
    }

    /// The cursor walk with a binary-search fallback. Precondition: t[0] <= p < t[n-1].
    @inline(__always)
    static func walk(_ p: Double, _ times: UnsafeBufferPointer<Double>, from hint: Int) -> Int {
        let lastSegment = times.count - 2
        var i = min(max(hint, 0), lastSegment)
        if times[i] <= p {
            for _ in 0 ... walkLimit {
                if p < times[i + 1] { return i }
                i += 1   // t[i+1] <= p < t[n-1] keeps i + 1 <= n - 2
            }
        } else {
            for _ in 0 ..< walkLimit {
                i -= 1   // t[i+1] > p >= t[0] keeps i >= 0
                if times[i] <= p { return i }
            }
        }
        return search(p, times)
    }

    /// Binary search: the last i with t[i] <= p. Precondition: t[0] <= p < t[n-1].
    @inline(__always)
    static func search(_ p: Double, _ times: UnsafeBufferPointer<Double>) -> Int {
        // Invariant: t[low] <= p < t[high].
        var low = 0, high = times.count - 1
        while high - low > 1 {
            let middle = (low + high) >> 1
            if times[middle] <= p { low = middle } else { high = middle }
        }
        return low
    }
}
