import Kinetic
import KineticUI

/// The seed documents' transition scenes, run headlessly by `kinetic demo`. Each animator
/// follows its seed document's code (durations, frames, snapshot handling).
@MainActor
enum DemoScenes {
    struct Result {
        let name: String
        let duration: Double
        let frames: Int
        let callbacks: [String]
        /// A gesture-driven scene's releases (see `SceneRecorder.releases`).
        let releases: [(time: Double, position: Double, velocity: Double, projected: Double, finished: Bool)]
        let csv: String
        let svg: String
    }

    static func runAll(into directory: String) throws -> [Result] {
        [try fadeIn(directory), try pageCurl(directory), try growFromButton(directory), try scaleSegue(directory),
         try interactiveDismissal(directory)]
    }

    private static func controller(_ name: String, color: Color, in recorder: SceneRecorder) -> ViewController {
        let vc = ViewController(name: name)
        vc.view.frame = recorder.window.bounds
        vc.view.backgroundColor = color
        return vc
    }

    private static func finish(_ recorder: SceneRecorder, name: String, title: String, directory: String) throws -> Result {
        let files = try recorder.write(name: name, title: title, into: directory)
        return Result(name: name, duration: recorder.time, frames: recorder.frame, callbacks: recorder.window.trace,
                      releases: recorder.releases, csv: files.csv, svg: files.svg)
    }

    // MARK: 1. Fade-in presentation (seed 000)

    static func fadeIn(_ directory: String) throws -> Result {
        let r = SceneRecorder()
        let main = controller("VCMain", color: Color(red: 0.95, green: 0.95, blue: 0.97), in: r)
        r.window.rootViewController = main
        r.window.clearTrace()
        let presented = controller("VCRed", color: Color(red: 0.86, green: 0.2, blue: 0.2), in: r)
        presented.modalPresentationStyle = .custom
        let delegate = FadeInDelegate()
        presented.transitioningDelegate = delegate
        var done = false
        try main.present(presented, animated: true) { done = true }
        try r.run(until: { done })
        return try finish(r, name: "scene-1-fade-in", title: "1. Fade-in presentation (0.5 s)", directory: directory)
    }

    // MARK: 2. Snapshot "page curl" (seed 001)

    static func pageCurl(_ directory: String) throws -> Result {
        let r = SceneRecorder()
        // The presenting controller's view is a card, so the snapshot visibly grows from it.
        let main = controller("FromVC", color: Color(red: 0.3, green: 0.5, blue: 0.85), in: r)
        r.window.rootViewController = main  // (which sets the root view's frame to the window's bounds)
        main.view.frame = Rect(x: 60, y: 250, width: 270, height: 340)
        r.window.clearTrace()
        let to = controller("ToVC", color: Color(red: 0.98, green: 0.85, blue: 0.3), in: r)
        let delegate = PageCurlDelegate()
        to.transitioningDelegate = delegate
        var done = false
        try main.present(to, animated: true) { done = true }
        try r.run(until: { done })
        return try finish(r, name: "scene-2-page-curl", title: "2. Snapshot page curl: the snapshot grows, then the real view shows (0.25 s)",
                          directory: directory)
    }

    // MARK: 3. VCYellow grows out of the button and shrinks back (seed 002)

    static func growFromButton(_ directory: String) throws -> Result {
        let r = SceneRecorder()
        let main = controller("VCMain", color: Color(red: 0.95, green: 0.95, blue: 0.97), in: r)
        let button = View(frame: Rect(x: 145, y: 600, width: 100, height: 44))
        button.name = "btnTapMe"
        button.backgroundColor = Color(red: 0.2, green: 0.45, blue: 0.95)
        main.view.addSubview(button)
        r.window.rootViewController = main
        r.window.clearTrace()
        let yellow = controller("VCYellow", color: Color(red: 1, green: 0.85, blue: 0.1), in: r)
        let delegate = GrowDelegate(buttonFrame: button.frame)
        yellow.transitioningDelegate = delegate
        var presented = false, dismissed = false
        try main.present(yellow, animated: true) { presented = true }
        try r.run(until: { presented })
        for _ in 0 ..< 12 { try r.step() }  // a moment on screen
        try yellow.dismiss(animated: true) { dismissed = true }
        try r.run(until: { dismissed })
        return try finish(r, name: "scene-3-grow-from-button", title: "3. VCYellow grows out of the button, then shrinks back (0.3 s each)",
                          directory: directory)
    }

    // MARK: 4. ScaleSegue (seed 004)

    static func scaleSegue(_ directory: String) throws -> Result {
        let r = SceneRecorder()
        let animals = AnimalsViewController(recorder: r)
        r.window.rootViewController = animals
        r.window.clearTrace()
        let detail = controller("AnimalDetailViewController", color: Color(red: 0.55, green: 0.8, blue: 0.45), in: r)
        let segue = ScaleSegue(identifier: "showDetail", source: animals, destination: detail)
        try segue.perform()
        try r.run(until: { r.window.transitionInProgress == nil })
        return try finish(r, name: "scene-4-scale-segue", title: "4. ScaleSegue: the detail scales out of the source's scaleView (2 s)",
                          directory: directory)
    }
}

extension DemoScenes {
    // MARK: 5. Interactive dismissal driven by a synthetic pan

    /// A finger's vertical stroke: from rest at 0 to `distance` points in `duration` seconds,
    /// moving at `releaseVelocity` points per second at the end (a cubic Hermite in time).
    struct PanStroke {
        let duration: Double
        let distance: Double
        let releaseVelocity: Double

        func position(at t: Double) -> Double {
            let u = min(max(t / duration, 0), 1)
            return distance * (3 - 2 * u) * u * u + releaseVelocity * duration * (u - 1) * u * u
        }
    }

    /// The card is dragged down by two synthetic pan strokes. Each stroke's samples (60 Hz)
    /// go through a `VelocityTracker`; at the release the tracker's velocity is projected
    /// (`Snapping.nearestTarget`, UIScrollView's normal deceleration) onto the two ends of the
    /// transition, and the interaction finishes or cancels with that velocity, which the
    /// spring keeps: the card moves at the tracker's velocity just after the release.
    ///  1. down to 40 %, released moving back up: projected short of half way, cancelled;
    ///  2. down to 35 % and flicked: projected past half way, finished.
    static func interactiveDismissal(_ directory: String) throws -> Result {
        let r = SceneRecorder()
        let main = controller("VCMain", color: Color(red: 0.95, green: 0.95, blue: 0.97), in: r)
        r.window.rootViewController = main
        let card = controller("VCCard", color: Color(red: 0.45, green: 0.3, blue: 0.8), in: r)
        let delegate = InteractiveDismissDelegate()
        card.transitioningDelegate = delegate
        try main.present(card, animated: false)
        r.window.clearTrace()
        let height = r.window.bounds.size.height
        func drag(_ stroke: PanStroke) throws {
            let interaction = PercentDrivenInteractiveTransition()
            interaction.timingCurve = try SpringTimingParameters(dampingRatio: 0.85)
            delegate.interaction = interaction
            try card.dismiss(animated: true)
            var tracker = try VelocityTracker()
            let start = r.time
            let frames = Int((stroke.duration * SceneRecorder.frameRate).rounded())
            var y = 0.0
            for k in 0 ... frames {
                y = stroke.position(at: r.time - start)
                try tracker.add(time: r.time, position: y)
                interaction.update(y / height)
                if k < frames { try r.step() }
            }
            // Released at the last sample: the tracker's velocity (points per second) decides.
            let velocity = tracker.velocity()
            let decision = try Snapping.nearestTarget(position: y, velocity: velocity, targets: [0, height])
            if decision.index == 1 {
                try interaction.finish(velocity: velocity / height)
            } else {
                try interaction.cancel(velocity: velocity / height)
            }
            r.releases.append((r.time, y, velocity, decision.projectedPosition, decision.index == 1))
            delegate.interaction = nil
            try r.run(until: { r.window.transitionInProgress == nil })
        }
        try drag(PanStroke(duration: 0.4, distance: 0.4 * height, releaseVelocity: -250))
        for _ in 0 ..< 6 { try r.step() }
        try drag(PanStroke(duration: 0.3, distance: 0.35 * height, releaseVelocity: 1400))
        return try finish(r, name: "scene-5-interactive-dismissal",
                          title: "5. Interactive dismissal by a pan: released moving up at 40 % (cancelled), flicked at 35 % (finished)",
                          directory: directory)
    }
}

/// Scene 5: an interruptible spring animator slides the card down; a percent-driven
/// interaction controller scrubs it.
@MainActor
final class InteractiveDismissDelegate: ViewControllerTransitioningDelegate {
    var interaction: PercentDrivenInteractiveTransition?
    func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
        SlideDownAnimator()
    }
    func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning)
        -> (any ViewControllerInteractiveTransitioning)? { interaction }
}

@MainActor
final class SlideDownAnimator: ViewControllerAnimatedTransitioning {
    private var animator: PropertyAnimator?
    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.5 }
    func animateTransition(using context: any ViewControllerContextTransitioning) throws {
        try (interruptibleAnimator(using: context) as? PropertyAnimator)?.startAnimation()
    }
    func interruptibleAnimator(using context: any ViewControllerContextTransitioning) -> (any ViewImplicitlyAnimating)? {
        if let animator { return animator }
        guard let from = context.viewController(forKey: .from), let to = context.viewController(forKey: .to),
              let made = try? PropertyAnimator(duration: 0.5, dampingRatio: 1, engine: from.engine) else { return nil }
        let container = context.containerView
        if let toView = context.view(forKey: .to) {
            toView.frame = context.finalFrame(for: to)
            container.insertSubview(toView, belowSubview: from.view)
        }
        let fromView = from.view, start = fromView.frame
        try? made.addAnimations {
            fromView.frame = Rect(x: start.origin.x, y: start.origin.y + container.bounds.size.height,
                                  width: start.size.width, height: start.size.height)
        }
        made.addCompletion { _ in try? context.completeTransition(!context.transitionWasCancelled) }
        animator = made
        return made
    }
}

// MARK: - The seeds' animators

/// Seed 000: fades the presented view in.
@MainActor
final class FadeInDelegate: ViewControllerTransitioningDelegate, ViewControllerAnimatedTransitioning {
    let animationDuration = 0.5
    func animationController(forPresented presented: ViewController, presenting: ViewController,
                             source: ViewController) -> (any ViewControllerAnimatedTransitioning)? { self }
    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { animationDuration }
    func animateTransition(using context: any ViewControllerContextTransitioning) throws {
        guard let toView = context.view(forKey: .to), let to = context.viewController(forKey: .to) else { return }
        toView.alpha = 0
        context.containerView.addSubview(toView)
        try View.animate(withDuration: animationDuration, engine: to.engine, animations: { toView.alpha = 1 }) { _ in
            try? context.completeTransition(true)
        }
    }
}

/// Seed 001: a snapshot of the destination grows from the source's frame to the final frame,
/// then the real view is shown. (The seed never calls completeTransition, which leaves the
/// transition stuck; here the completion calls it.)
@MainActor
final class PageCurlDelegate: ViewControllerTransitioningDelegate, ViewControllerAnimatedTransitioning {
    func animationController(forPresented presented: ViewController, presenting: ViewController,
                             source: ViewController) -> (any ViewControllerAnimatedTransitioning)? { self }
    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.25 }
    func animateTransition(using context: any ViewControllerContextTransitioning) throws {
        guard let fromVC = context.viewController(forKey: .from), let toVC = context.viewController(forKey: .to) else { return }
        let snapshot = toVC.view.snapshotView(afterScreenUpdates: true)
        snapshot.name = "snapshot"
        snapshot.frame = context.initialFrame(for: fromVC)
        context.containerView.addSubview(toVC.view)
        context.containerView.addSubview(snapshot)
        toVC.view.frame = context.finalFrame(for: toVC)
        toVC.view.isHidden = true
        let finalFrame = context.finalFrame(for: toVC)
        try View.animate(withDuration: transitionDuration(using: context), engine: toVC.engine, animations: {
            snapshot.frame = finalFrame
        }) { _ in
            snapshot.removeFromSuperview()
            toVC.view.isHidden = false
            try? context.completeTransition(true)
        }
    }
}

/// Seed 002: AnimatorPresent grows a snapshot of VCYellow out of the button's frame;
/// AnimatorDismiss shrinks a snapshot back into it.
@MainActor
final class GrowDelegate: ViewControllerTransitioningDelegate {
    let buttonFrame: Rect
    init(buttonFrame: Rect) { self.buttonFrame = buttonFrame }
    func animationController(forPresented presented: ViewController, presenting: ViewController,
                             source: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
        SnapshotFrameAnimator(startFrame: buttonFrame, presenting: true)
    }
    func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
        SnapshotFrameAnimator(startFrame: buttonFrame, presenting: false)
    }
}

@MainActor
final class SnapshotFrameAnimator: ViewControllerAnimatedTransitioning {
    let startFrame: Rect
    let presenting: Bool
    init(startFrame: Rect, presenting: Bool) {
        self.startFrame = startFrame
        self.presenting = presenting
    }
    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.3 }
    func animateTransition(using context: any ViewControllerContextTransitioning) throws {
        let key: TransitionContextKey = presenting ? .to : .from
        guard let vc = context.viewController(forKey: key) else { return }
        let snapshot = vc.view.snapshotView(afterScreenUpdates: true)
        snapshot.name = "snapshot"
        let container = context.containerView
        let full = presenting ? context.finalFrame(for: vc) : vc.view.frame
        if presenting { container.addSubview(vc.view) }
        vc.view.isHidden = true
        snapshot.frame = presenting ? startFrame : full
        container.addSubview(snapshot)
        let target = presenting ? full : startFrame
        try View.animate(withDuration: 0.3, engine: vc.engine, animations: { snapshot.frame = target }) { _ in
            vc.view.isHidden = false
            snapshot.removeFromSuperview()
            try? context.completeTransition(true)
        }
    }
}

/// Seed 004: a source with a view to scale from.
@MainActor
protocol ViewScaleable {
    var scaleView: View { get }
}

@MainActor
final class AnimalsViewController: ViewController, ViewScaleable {
    let scaleView: View
    init(recorder: SceneRecorder) {
        scaleView = View(frame: Rect(x: 24, y: 140, width: 120, height: 120))
        scaleView.name = "imageView"
        scaleView.backgroundColor = Color(red: 0.9, green: 0.55, blue: 0.2)
        super.init(name: "AnimalsViewController")
        view.frame = recorder.window.bounds
        view.backgroundColor = Color(red: 0.95, green: 0.95, blue: 0.97)
        view.addSubview(scaleView)
    }
}

/// Seed 004: the segue sets itself as the destination's transitioning delegate and presents.
@MainActor
final class ScaleSegue: StoryboardSegue, ViewControllerTransitioningDelegate {
    override func perform() throws {
        destination.transitioningDelegate = self
        try source.present(destination, animated: true)
    }
    func animationController(forPresented presented: ViewController, presenting: ViewController,
                             source: ViewController) -> (any ViewControllerAnimatedTransitioning)? {
        ScalePresentAnimator()
    }
}

@MainActor
final class ScalePresentAnimator: ViewControllerAnimatedTransitioning {
    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 2 }
    func animateTransition(using context: any ViewControllerContextTransitioning) throws {
        guard let from = context.viewController(forKey: .from), let to = context.viewController(forKey: .to),
              let toView = context.view(forKey: .to) else { return }
        context.containerView.addSubview(toView)
        toView.frame = (from as? ViewScaleable)?.scaleView.frame ?? .zero
        let finalFrame = context.finalFrame(for: to)
        try View.animate(withDuration: transitionDuration(using: context), engine: to.engine, animations: {
            toView.frame = finalFrame
        }) { _ in try? context.completeTransition(true) }
    }
}
