/// Global control of animation (`UIView`'s class methods): turning animations off, and the
/// duration an animations block runs under.
extension View {
    /// Whether animations are enabled (`UIView.areAnimationsEnabled`); true by default.
    ///
    /// While they are not, animations blocks still run, but their changes apply at once
    /// instead of being animated (a block-based animation then completes at the next tick,
    /// finished; a property animator runs its timing over nothing). Animations already
    /// running are not affected.
    public static var areAnimationsEnabled: Bool { AnimationCapture.animationsEnabled }

    /// Turns animations on or off for the animations blocks run from now on
    /// (`UIView.setAnimationsEnabled(_:)`); see ``areAnimationsEnabled``.
    public static func setAnimationsEnabled(_ enabled: Bool) {
        AnimationCapture.animationsEnabled = enabled
    }

    /// Runs `actions` with animations disabled, then restores the previous setting (also
    /// when `actions` throws): changes it makes apply at once, even inside an animations
    /// block (`UIView.performWithoutAnimation(_:)`).
    public static func performWithoutAnimation(_ actions: () throws -> Void) rethrows {
        let enabled = AnimationCapture.animationsEnabled
        AnimationCapture.animationsEnabled = false
        defer { AnimationCapture.animationsEnabled = enabled }
        try actions()
    }

    /// The duration of the animation whose animations block is running, seconds
    /// (`UIView.inheritedAnimationDuration`): the block-based animation's (or, nested, the
    /// one it inherits), the keyframe animation's, or in a property animator's block the time
    /// left for that block's animations (its duration for the blocks it starts with; the rest
    /// after the delay factor for a block added later, as a block-based animation made in it
    /// inherits); 0 outside an animations block and while animations are disabled.
    public static var inheritedAnimationDuration: Double {
        AnimationCapture.capturing?.duration ?? 0
    }
}
