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
        assert(steps <= Self.segmentCount && Self.iVNodes - Self.iNodes >= 2 * Self.segmentCount)
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
        let nodes = d + iNodes, variables = d + iVNodes
        var secondOrder: UInt64 = 0
        var a = half.node(0)
        for i in 0..<n {
            nodes[i] = half.nodeProgress(i)
            variables[i] = a.v
            let next = half.node(i + 1)
            if half.segment(i, a, next, singular, into: d + (iCoef + coefficientStride * i)) {
                secondOrder |= 1 << UInt64(i)
            }
            a = next
        }
        d[iSecondOrder] = Double(bitPattern: secondOrder)
        // The sentinels keep the look-up inside the last segment.
        for k in n..<(iVNodes - iNodes) { nodes[k] = .infinity }
        return (fillBucketMap(b, nodes: nodes, half: half, scale: d[iScale]), secondOrder != 0)
    }

    /// Fills a half's bucket map and returns the number of segment increments it needs.
    ///
    /// The evaluation's bucket of xx is J(xx) = `BezierKernel.bucket(half.estimate(xx), scale)`,
    /// non-decreasing in xx, and its segment is the number of inner nodes whose progress is
    /// at or below xx. Every inner node in an earlier bucket is below any xx of bucket j, and
    /// every node in a later one above it, so map[j] = #{k : J(x_k) < j} is where the count
    /// starts, and the most inner nodes that share one bucket is the number of comparisons
    /// it needs. Both come from the nodes' own buckets, computed by the very function that
    /// the evaluation runs, so the map is exact: no margin for rounding. Built by
    /// `kinetic_simd_bucket_map64` from J(x_k) + 1: no data-dependent branch. Writes up to
    /// `byteSlack` bytes past the map, which the next half's map (built after it) or the
    /// slack absorbs.
    private static func fillBucketMap(_ b: UnsafeMutablePointer<UInt8>, nodes: UnsafeMutablePointer<Double>,
                                      half: BezierHalf, scale: Double) -> Int {
        let n = segmentCount
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { buffer in
            let first = buffer.baseAddress!
            var previous = 0
            for k in 1..<n {
                // Nodes increase (x is monotone) and J is non-decreasing; the running maximum
                // guards the map's precondition all the same.
                previous = max(previous, BezierKernel.bucket(half.estimate(nodes[k]), scale) &+ 1)
                first[k - 1] = UInt8(truncatingIfNeeded: previous)
            }
            return Int(kinetic_simd_bucket_map64(first, Int32(n - 1), b))
        }
    }
}
