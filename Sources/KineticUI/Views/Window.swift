import Kinetic

/// The top of a headless view hierarchy: hosts the root view controller, runs modal
/// transitions on its engine, and records the appearance callbacks it delivers.
@MainActor
public final class Window: View {
    /// The engine the window's transitions animate on.
    public let engine: AnimationEngine
    /// Every appearance callback delivered, in order ("VCMain.viewWillDisappear", …).
    public private(set) var trace: [String] = []
    /// The transition in progress, if any (one whose `completeTransition` was never called
    /// stays here, and blocks new transitions). It is cleared after the "did" callbacks that
    /// `completeTransition` runs (before the coordinator's completions, `animationEnded` and
    /// the completion block). A transition started from one of those callbacks (a
    /// `viewDidAppear` that presents, pushes or dismisses, as UIKit allows) first runs the rest
    /// of the ended transition's steps, so it does not find it in progress; a request made
    /// while those steps run (from a completion block) comes first, and the later one finds
    /// it in progress.
    public internal(set) var transitionInProgress: TransitionContext?
    private var rootController: ViewController?

    /// A window of `size` points on `engine`.
    public init(size: Size = Size(width: 390, height: 844), engine: AnimationEngine = .shared) {
        self.engine = engine
        super.init(frame: Rect(origin: .zero, size: size))
        name = "window"
    }

    /// A presented controller and its presentation controller hold each other, and the
    /// presentation controller holds the presenter, until the dismissal ends. A window that
    /// goes away with presentations still showing would leave those controllers, their views
    /// and what they animate alive for good (LeakSanitizer found it after every test and every
    /// `kinetic demo` scene that ends presented), so the window unlinks them on its way out.
    isolated deinit {
        var presenter = rootController
        while let host = presenter, let presented = host.presentedStorage {
            presented.presentationController = nil
            presented.presentingStorage = nil
            host.presentedStorage = nil
            presenter = presented
        }
    }

    /// The root controller: setting it installs its view (with appearance callbacks).
    public var rootViewController: ViewController? {
        get { rootController }
        set {
            // A transition that ended from inside a callback first finishes its steps.
            TransitionFinishQueue.drain()
            if let old = rootController {
                old.beginAppearanceTransition(false, animated: false)
                old.view.removeFromSuperview()
                old.endAppearanceTransition()
                old.hostWindow = nil
            }
            rootController = newValue
            guard let root = newValue else { return }
            root.hostWindow = self
            root.beginAppearanceTransition(true, animated: false)
            root.view.frame = bounds
            addSubview(root.view)
            root.endAppearanceTransition()
        }
    }

    /// Forgets the recorded trace.
    public func clearTrace() { trace.removeAll() }

    func record(_ event: String) { trace.append(event) }
}
