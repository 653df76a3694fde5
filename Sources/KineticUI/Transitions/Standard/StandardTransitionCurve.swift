/// The curve of the standard transitions (``SlideTransition``, ``CoverVerticalTransition``,
/// ``CrossDissolveTransition``).
extension AnimationCurve {
    /// Ease in-out, or linear when the transition starts interactively: a percent-driven
    /// transition scrubs its animations along their curves, as UIKit scrubs the layer time,
    /// and a linear curve keeps the views under the gesture (as UIKit's interactive pop does).
    @MainActor
    static func standardTransition(_ context: any ViewControllerContextTransitioning) -> AnimationCurve {
        context.isInteractive ? .linear : .easeInOut
    }
}
