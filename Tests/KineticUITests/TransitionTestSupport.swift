import Kinetic
import KineticUI
import XCTest

/// One ordered list of events shared by controllers, presentation controllers and
/// coordinator handlers, so a test can assert how their calls interleave (the window's
/// trace only holds appearance callbacks).
@MainActor
final class Journal {
    private(set) var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
    func clear() { entries.removeAll() }
}

/// A controller that writes its appearance and containment callbacks into a journal.
@MainActor
class JournaledViewController: ViewController {
    let journal: Journal

    init(_ name: String, journal: Journal) {
        self.journal = journal
        super.init(name: name)
    }

    override func viewWillAppear(_ animated: Bool) { journal.add("\(name).viewWillAppear") }
    override func viewDidAppear(_ animated: Bool) { journal.add("\(name).viewDidAppear") }
    override func viewWillDisappear(_ animated: Bool) { journal.add("\(name).viewWillDisappear") }
    override func viewDidDisappear(_ animated: Bool) { journal.add("\(name).viewDidDisappear") }
    override func willMove(toParent parent: ViewController?) { journal.add("\(name).willMove(\(parent?.name ?? "nil"))") }
    override func didMove(toParent parent: ViewController?) { journal.add("\(name).didMove(\(parent?.name ?? "nil"))") }
}

/// A presentation controller that journals its hooks, insets the presented view from the
/// top, and fades a dimming view in and out alongside the transitions.
@MainActor
final class DimmingPresentationController: PresentationController {
    let journal: Journal
    let dimmingView = View()
    var removesPresenter = false
    /// Points between the container's top and the presented view.
    static let topInset = 300.0

    init(presented: ViewController, presenting: ViewController?, journal: Journal) {
        self.journal = journal
        super.init(presentedViewController: presented, presenting: presenting)
        dimmingView.name = "dimming"
    }

    override var frameOfPresentedViewInContainerView: Rect {
        guard let bounds = containerView?.bounds else { return .zero }
        return Rect(x: 0, y: Self.topInset, width: bounds.size.width, height: bounds.size.height - Self.topInset)
    }

    override var shouldRemovePresentersView: Bool { removesPresenter }

    override func presentationTransitionWillBegin() {
        journal.add("PC.presentationTransitionWillBegin")
        guard let container = containerView else { return journal.add("no container") }
        dimmingView.frame = container.bounds
        dimmingView.alpha = 0
        container.insertSubview(dimmingView, at: 0)
        guard let coordinator = presentedViewController.transitionCoordinator else { return journal.add("no coordinator") }
        coordinator.animate(alongsideTransition: { _ in self.dimmingView.alpha = 1 })
    }

    override func presentationTransitionDidEnd(_ completed: Bool) {
        journal.add("PC.presentationTransitionDidEnd(\(completed))")
        if !completed { dimmingView.removeFromSuperview() }
    }

    override func dismissalTransitionWillBegin() {
        journal.add("PC.dismissalTransitionWillBegin")
        guard let coordinator = presentedViewController.transitionCoordinator else { return journal.add("no coordinator") }
        coordinator.animate(alongsideTransition: { _ in self.dimmingView.alpha = 0 })
    }

    override func dismissalTransitionDidEnd(_ completed: Bool) {
        journal.add("PC.dismissalTransitionDidEnd(\(completed))")
        if completed { dimmingView.removeFromSuperview() }
    }

    override func containerViewWillLayoutSubviews() {
        journal.add("PC.containerViewWillLayoutSubviews")
        presentedView?.frame = frameOfPresentedViewInContainerView
    }

    override func containerViewDidLayoutSubviews() { journal.add("PC.containerViewDidLayoutSubviews") }
}

/// A transitioning delegate with settable parts; it vends a new dimming presentation
/// controller per presentation (and counts how often it was asked for one).
@MainActor
final class ConfigurableDelegate: ViewControllerTransitioningDelegate {
    let journal: Journal
    var makesPresentationController = true
    var removesPresenter = false
    var presentAnimator: (any ViewControllerAnimatedTransitioning)?
    var dismissAnimator: (any ViewControllerAnimatedTransitioning)?
    var presentInteraction: PercentDrivenInteractiveTransition?
    var dismissInteraction: PercentDrivenInteractiveTransition?
    private(set) var presentationControllersVended: [DimmingPresentationController] = []
    private(set) var presentationControllerRequests = 0

    init(journal: Journal) { self.journal = journal }

    func presentationController(forPresented presented: ViewController, presenting: ViewController?,
                                source: ViewController) -> PresentationController? {
        presentationControllerRequests += 1
        guard makesPresentationController else { return nil }
        let controller = DimmingPresentationController(presented: presented, presenting: presenting, journal: journal)
        controller.removesPresenter = removesPresenter
        presentationControllersVended.append(controller)
        return controller
    }
    func animationController(forPresented presented: ViewController, presenting: ViewController,
                             source: ViewController) -> (any ViewControllerAnimatedTransitioning)? { presentAnimator }
    func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? { dismissAnimator }
    func interactionControllerForPresentation(using animator: any ViewControllerAnimatedTransitioning)
        -> (any ViewControllerInteractiveTransitioning)? { presentInteraction }
    func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning)
        -> (any ViewControllerInteractiveTransitioning)? { dismissInteraction }
}

/// Scene 5's animator: an interruptible spring animator (0.5 s, critically damped) slides the
/// dismissed view down by the container's height. Records every `completeTransition` flag it
/// passes, the animator's end positions and `animationEnded` calls.
@MainActor
final class InterruptibleSlideDown: ViewControllerAnimatedTransitioning {
    private(set) var animator: PropertyAnimator?
    private(set) var completeFlags: [Bool] = []
    private(set) var positions: [ViewAnimatingPosition] = []
    private(set) var ended: [Bool] = []
    private(set) var vendCount = 0
    let timing: any TimingCurveProvider

    /// Scene 5 passes `try SpringTimingParameters(dampingRatio: 1)`.
    init(timing: any TimingCurveProvider) { self.timing = timing }

    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 0.5 }

    func animateTransition(using context: any ViewControllerContextTransitioning) throws {
        try (interruptibleAnimator(using: context) as? PropertyAnimator)?.startAnimation()
    }

    func interruptibleAnimator(using context: any ViewControllerContextTransitioning) -> (any ViewImplicitlyAnimating)? {
        if let animator { return animator }
        vendCount += 1
        guard let from = context.viewController(forKey: .from), let fromView = context.view(forKey: .from),
              let made = try? PropertyAnimator(duration: 0.5, timingParameters: timing, engine: from.engine) else { return nil }
        let container = context.containerView
        if let to = context.viewController(forKey: .to), let toView = context.view(forKey: .to) {
            toView.frame = context.finalFrame(for: to)
            container.insertSubview(toView, belowSubview: fromView)
        }
        let start = fromView.frame, drop = container.bounds.size.height
        try? made.addAnimations {
            fromView.frame = Rect(x: start.origin.x, y: start.origin.y + drop, width: start.size.width, height: start.size.height)
        }
        made.addCompletion { [unowned self] position in
            let flag = !context.transitionWasCancelled
            completeFlags.append(flag)
            positions.append(position)
            try? context.completeTransition(flag)
        }
        animator = made
        return made
    }

    func animationEnded(_ transitionCompleted: Bool) { ended.append(transitionCompleted) }
}

/// The set-up the interactive-dismissal tests share: a window whose root A has presented
/// `presented` without animation (trace cleared), and a delegate on `presented` whose
/// dismissal is driven by a fresh percent-driven interaction.
@MainActor
func interactiveDismissalFixture(engine: AnimationEngine, presenting a: ViewController, presented: ViewController)
    throws -> (window: Window, delegate: ConfigurableDelegate, interaction: PercentDrivenInteractiveTransition) {
    let window = Window(engine: engine)
    window.rootViewController = a
    try a.present(presented, animated: false)
    window.clearTrace()
    let delegate = ConfigurableDelegate(journal: Journal())
    let interaction = PercentDrivenInteractiveTransition()
    delegate.dismissInteraction = interaction
    // UIKit asks for an interaction controller only for an animator the delegate vends.
    delegate.dismissAnimator = CoverVerticalTransition()
    presented.transitioningDelegate = delegate
    return (window, delegate, interaction)
}
