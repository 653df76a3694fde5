/// A transition from one controller to another (`UIStoryboardSegue`). Subclasses override
/// ``perform()`` to animate from ``source`` to ``destination`` and install the destination
/// at the end — typically by setting the destination's transitioning delegate and
/// presenting it, as the ScaleSegue of the custom-segue seed does.
@MainActor
open class StoryboardSegue {
    /// The segue's identifier.
    public let identifier: String?
    /// The controller the segue starts from.
    public let source: ViewController
    /// The controller the segue shows.
    public let destination: ViewController

    /// A segue from `source` to `destination`.
    public init(identifier: String?, source: ViewController, destination: ViewController) {
        self.identifier = identifier
        self.source = source
        self.destination = destination
    }

    /// Runs the transition. The default presents the destination modally, animated.
    /// - Throws: ``TransitionError`` from the presentation.
    open func perform() throws {
        try source.present(destination, animated: true)
    }
}
