import KineticSIMD

// Construction of a curve's solve table (see `BezierTable`): both halves' headers, nodes and
// certified segments (computed by `BezierHalf`), and the bucket map over the nodes.

extension BezierTable {
    /// Builds the solve table (see `BezierKernel` for its layout) into a new allocation.
    func buildSolveTable() -> UnsafeMutableRawPointer {
        let constants = self.constants
        let table = UnsafeMutableRawPointer.allocate(byteCount: BezierKernel.allocationBytes,
                                                     alignment: BezierKernel.alignment)
        let doubles = (table + BezierKernel.headerBytes).bindMemory(to: Double.self, capacity: 2 * Self.halfStride)
        let bytes = (table + BezierKernel.bytesOffset).bindMemory(to: UInt8.self,
                                                                 capacity: 2 * Self.byteStride + Self.byteSlack)
        // Every slot the evaluation reads is written below; the rest starts zeroed so that
        // the memory is initialised.
        doubles.initialize(repeating: 0, count: 2 * Self.halfStride)
        bytes.initialize(repeating: 0, count: 2 * Self.byteStride + Self.byteSlack)
        var steps = 0, secondOrder = false
        let lower = constants.lower, upper = constants.upper
        for (k, half) in [(0, lower), (1, upper)] {
            let (halfSteps, halfSecondOrder) = Self.build(half, doubles + k * Self.halfStride,
                                                          bytes + k * Self.byteStride)
            steps = max(steps, halfSteps)
            secondOrder = secondOrder || halfSecondOrder
        }
        // The look-up reads up to `steps` nodes past its bucket's first segment: the
        // sentinels cover segmentCount of them.
        assert(steps <= Self.segmentCount && Self.iCoef - Self.iNodes >= 2 * Self.segmentCount)
        BezierKernel.writeHeader(table, steps: steps, usesRoot: constants.usesRoot, secondOrder: secondOrder,
                                 scaledY: lower.poly.yScale != 1 || upper.poly.yScale != 1)
        return table
    }

    /// Fills one half: its header, nodes and segment records in `d`, its bucket map in `b`.
    /// Returns the number of segment increments the look-up needs and whether any segment
    /// needs the folded step's second-order term.
    private static func build(_ half: BezierHalf, _ d: UnsafeMutablePointer<Double>,
                              _ b: UnsafeMutablePointer<UInt8>) -> (steps: Int, secondOrder: Bool) {
        let n = segmentCount
        half.writeHeader(d)
        let singular = InverseSingularities(half.poly, root: half.root)
        let nodes = d + iNodes
        var secondOrder: UInt64 = 0
        var a = half.node(0)
        nodes[0] = a.v
        for i in 0..<n {
            let next = half.node(i + 1)
            nodes[i + 1] = next.v
            if half.segment(i, a, next, singular, into: d + (iCoef + coefficientStride * i)) {
                secondOrder |= 1 << UInt64(i)
            }
            a = next
        }
        d[iSecondOrder] = Double(bitPattern: secondOrder)
        // The sentinels keep the look-up inside the last segment.
        for k in n..<(iCoef - iNodes) { nodes[k] = .infinity }
        return (fillBucketMap(b, nodes: nodes, vEnd: half.vEnd), secondOrder != 0)
    }

    /// Fills a half's bucket map and returns the number of segment increments it needs.
    ///
    /// Bucket j covers v in [(j − ½)·width, (j + ½)·width) (the last one up to vEnd), since the
    /// evaluation rounds v·scale to the nearest integer (`BezierKernel.bucket`); map[j] = the
    /// segment holding its left end, that is the number of inner nodes at or below it. The
    /// width is taken a hair narrow (left ends a hair low), so that every v whose v·scale
    /// rounds to j is at or above its bucket's left end despite rounding (at worst an extra
    /// increment). The count is the most inner nodes inside one bucket, plus one if a node
    /// lies within rounding of a bucket boundary (the evaluation's bucket index may then be
    /// one below the rounded v·scale). Built from each node's first bucket at or above it by
    /// `kinetic_simd_bucket_map64`: no data-dependent branch. Writes up to `byteSlack` bytes
    /// past the map, which the next half's map (built after it) or the slack absorbs.
    private static func fillBucketMap(_ b: UnsafeMutablePointer<UInt8>, nodes: UnsafeMutablePointer<Double>,
                                      vEnd: Double) -> Int {
        let n = segmentCount, m = bucketCount
        let invWidth = Double(m) / vEnd * (1 + 0x1p-40)
        var nearBoundary = false
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { buffer in
            let first = buffer.baseAddress!
            var previous = 0
            for k in 1..<n {
                // In units of the width, shifted by half a bucket: bucket j's left end is j.
                let position = min(max(nodes[k] * invWidth + 0.5, 0), Double(m))
                let below = Int(position)  // floor: position ≥ 0
                let fraction = position - Double(below)
                nearBoundary = nearBoundary || fraction < 1e-6 || fraction > 1 - 1e-6
                // The first bucket at or above the node (m, in no bucket, for the top end).
                // Nodes increase (x is monotone); the running maximum guards the map's
                // precondition against rounding.
                previous = max(previous, below &+ (fraction > 0 ? 1 : 0))
                first[k - 1] = UInt8(truncatingIfNeeded: previous)
            }
            // map[j] = the inner nodes at or below bucket j's left end; the most nodes in one
            // bucket (bucket 0 holds none: inner nodes are > 0).
            let most = kinetic_simd_bucket_map64(first, Int32(n - 1), b)
            return Int(most) + (nearBoundary ? 1 : 0)
        }
    }
}
