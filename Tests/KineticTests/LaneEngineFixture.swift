import Kinetic

/// An engine with one host-owned block of `values` (as a C host owns its lanes), a run over
/// it that is not started, and the block's first lane.
func engineWithRun(_ values: [Double], timing: RunTiming = .linear, duration: Double = 1)
    throws -> (LaneEngine, RunHandle, Int) {
    let engine = LaneEngine()
    let block = engine.allocateBlock(values)
    let run = try engine.makeRun(timing: timing, duration: duration)
    return (engine, run, engine.firstLane(of: block))
}
