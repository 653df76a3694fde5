import Kinetic

/// The kind of timing a provider describes (`UITimingCurveType`).
public enum TimingCurveType: Int, Sendable, CustomStringConvertible {
    /// One of the built-in curves (``AnimationCurve``, or the default curve).
    case builtin = 0
    /// A cubic Bézier from control points.
    case cubic = 1
    /// A spring.
    case spring = 2
    /// Both a cubic curve and a spring.
    case composed = 3

    public var description: String {
        switch self {
        case .builtin: return "builtin"
        case .cubic: return "cubic"
        case .spring: return "spring"
        case .composed: return "composed"
        }
    }
}

/// UIKit's named animation curves (`UIView.AnimationCurve`), the same cubic curves as Core
/// Animation's named timing functions.
public enum AnimationCurve: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// Slow start and end: (0.42, 0), (0.58, 1).
    case easeInOut = 0
    /// Slow start: (0.42, 0), (1, 1).
    case easeIn = 1
    /// Slow end: (0, 0), (0.58, 1).
    case easeOut = 2
    /// Constant speed.
    case linear = 3

    /// The curve as a `CubicBezier`.
    public var bezier: CubicBezier {
        switch self {
        case .easeInOut: return .easeInOut
        case .easeIn: return .easeIn
        case .easeOut: return .easeOut
        case .linear: return .linear
        }
    }

    public var description: String {
        switch self {
        case .easeInOut: return "easeInOut"
        case .easeIn: return "easeIn"
        case .easeOut: return "easeOut"
        case .linear: return "linear"
        }
    }
}

/// A two-component velocity (`CGVector`). For springs it is in units of the animated
/// distance per second: 1 means "covering the whole move in one second".
public struct Vector: Hashable, Sendable {
    /// Horizontal component (also used for one-dimensional properties such as alpha).
    public var dx: Double
    /// Vertical component.
    public var dy: Double
    /// Creates a vector.
    public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }
    /// (0, 0).
    public static let zero = Vector(dx: 0, dy: 0)
}

/// Something that supplies an animator's timing (`UITimingCurveProvider`).
public protocol TimingCurveProvider: Sendable {
    /// Which of the parameter sets below is used.
    var timingCurveType: TimingCurveType { get }
    /// The cubic timing, when the type is builtin, cubic or composed.
    var cubicTimingParameters: CubicTimingParameters? { get }
    /// The spring timing, when the type is spring or composed.
    var springTimingParameters: SpringTimingParameters? { get }
}

/// Cubic Bézier timing (`UICubicTimingParameters`).
public struct CubicTimingParameters: TimingCurveProvider, Hashable {
    /// The named curve this came from (`.easeInOut` for control-point curves, as UIKit reports).
    public let animationCurve: AnimationCurve
    /// First control point; x in [0, 1].
    public let controlPoint1: Point
    /// Second control point; x in [0, 1].
    public let controlPoint2: Point
    /// The timing curve.
    public let curve: CubicBezier
    public let timingCurveType: TimingCurveType

    /// The default Core Animation curve, (0.25, 0.1), (0.25, 1).
    public init() {
        animationCurve = .easeInOut
        curve = .ease
        controlPoint1 = Point(x: 0.25, y: 0.1)
        controlPoint2 = Point(x: 0.25, y: 1)
        timingCurveType = .builtin
    }

    /// One of UIKit's named curves.
    public init(animationCurve: AnimationCurve) {
        self.animationCurve = animationCurve
        curve = animationCurve.bezier
        controlPoint1 = Point(x: curve.x1, y: curve.y1)
        controlPoint2 = Point(x: curve.x2, y: curve.y2)
        timingCurveType = .builtin
    }

    /// A custom curve through (0, 0), `controlPoint1`, `controlPoint2`, (1, 1).
    /// - Throws: ``AnimatorError/invalidParameter(_:)`` if an x is outside [0, 1] or any
    ///   coordinate is not finite.
    public init(controlPoint1: Point, controlPoint2: Point) throws {
        do {
            curve = try CubicBezier(controlPoint1.x, controlPoint1.y, controlPoint2.x, controlPoint2.y)
        } catch let error as ParameterError {
            throw AnimatorError.invalidParameter(error)
        }
        self.controlPoint1 = controlPoint1
        self.controlPoint2 = controlPoint2
        animationCurve = .easeInOut
        timingCurveType = .cubic
    }

    public var cubicTimingParameters: CubicTimingParameters? { self }
    public var springTimingParameters: SpringTimingParameters? { nil }
}

extension RunTiming {
    /// The engine's timing for a provider: its spring when it is one (and not a cubic or
    /// built-in curve), else its cubic curve, else the default curve.
    init(_ provider: some TimingCurveProvider) {
        if let spring = provider.springTimingParameters, provider.timingCurveType != .builtin,
           provider.timingCurveType != .cubic {
            self = spring.runTiming
        } else if let cubic = provider.cubicTimingParameters {
            self = cubic.curve == .linear ? .linear : .cubic(cubic.curve)
        } else {
            self = .cubic(.ease)
        }
    }
}
