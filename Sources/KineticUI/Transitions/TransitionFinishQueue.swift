/// The steps that end a transition, run in order: its "did" appearance callbacks, the
/// presentation controller's and the navigation delegate's, the containment calls, the
/// bookkeeping that unlinks or settles the controllers, the coordinator's completions,
/// `animationEnded(_:)` and the completion block.
///
/// A callback among them may start the next transition (UIKit lets a `viewDidAppear`
/// present, push or dismiss). Every transition drains the queue before it begins, so the
/// rest of the ended transition's steps run first: each controller gets the old
/// transition's callbacks before the new one's, and the new one sees the stack, the
/// presentation links and the window as the old one leaves them.
@MainActor
enum TransitionFinishQueue {
    private static var pending: [@MainActor () -> Void] = []
    private static var next = 0

    /// Appends `steps` to run after those already pending (call ``drain()`` to run them).
    static func enqueue(_ steps: [@MainActor () -> Void]) {
        pending.append(contentsOf: steps)
    }

    /// A whole appearance transition of `controller` as two steps (begin, then end): how a
    /// cancelled transition turns its controllers round.
    static func appearanceSteps(of controller: ViewController, appearing: Bool) -> [@MainActor () -> Void] {
        [{ controller.beginAppearanceTransition(appearing, animated: true) }, { controller.endAppearanceTransition() }]
    }

    /// Runs every pending step, in order. Re-entrant: a step that starts a transition drains
    /// the remaining steps from inside it, and this loop then finds none left.
    static func drain() {
        while next < pending.count {
            let step = pending[next]
            next += 1
            step()
        }
        pending.removeAll(keepingCapacity: true)
        next = 0
    }
}
