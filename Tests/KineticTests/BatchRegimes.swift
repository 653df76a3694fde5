// A batch call on a curve goes through the solve table's vectorised kernel until the curve's
// batch calls pass 8,192 x, then through its batch table (Curves/BezierBatch.swift). Tests of
// the batch path check both: `batchRegimes` gives a call's values in each.
import Kinetic

extension CubicBezier {
    /// `values(at: xs)` in both batch regimes: `kernel` from a curve equal to this one whose
    /// batch calls have not reached the batch table (nil if it already has one, as a preset's
    /// shared solver may), `table` from the same curve after batch calls past the rule (its
    /// batch table, or the kernel again where the curve declines the table).
    func batchRegimes(_ xs: [Double]) -> (kernel: [Double]?, table: [Double]) {
        let fresh = try! CubicBezier(x1, y1, x2, y2)
        let kernel = fresh.table.hasBatchTable ? nil : fresh.values(at: xs)
        if !fresh.table.hasBatchTable && !fresh.table.declinedBatchTable {
            _ = fresh.values(at: [Double](repeating: 0.5, count: 8193))
        }
        return (kernel, fresh.values(at: xs))
    }

    /// Both regimes' values, for checks that apply to each alike.
    func batchValuesInBothRegimes(_ xs: [Double]) -> [[Double]] {
        let (kernel, table) = batchRegimes(xs)
        return (kernel.map { [$0] } ?? []) + [table]
    }
}
