/// An animator's run in the engine (its timing record), as the animators hold it. The
/// engine's index inside it is read only by the engine (this folder): the animators ask the
/// engine for what they need through the handle and never touch its arrays.
struct RunHandle: Equatable {
    /// The run's timing record in ``AnimationEngine``'s `records`.
    let index: Int32
}
