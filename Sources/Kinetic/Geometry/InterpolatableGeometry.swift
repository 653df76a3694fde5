/// A point in a 2-D coordinate space (points, as `CGPoint`). Interpolates per coordinate.
public struct Point: Interpolatable, Hashable, Sendable {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate.
    public var y: Double

    /// Creates the point (x, y).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// Two lanes: x, y.
    public static var laneCount: Int { 2 }

    public func writeLanes(into lanes: UnsafeMutableBufferPointer<Double>) {
        lanes[0] = x
        lanes[1] = y
    }

    public init(lanes: UnsafeBufferPointer<Double>) {
        self.init(x: lanes[0], y: lanes[1])
    }
}

/// A width and height (as `CGSize`). Interpolates per component; negative sizes are allowed.
public struct Size: Interpolatable, Hashable, Sendable {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// Creates the size width × height.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The empty size 0 × 0.
    public static let zero = Size(width: 0, height: 0)

    /// Two lanes: width, height.
    public static var laneCount: Int { 2 }

    public func writeLanes(into lanes: UnsafeMutableBufferPointer<Double>) {
        lanes[0] = width
        lanes[1] = height
    }

    public init(lanes: UnsafeBufferPointer<Double>) {
        self.init(width: lanes[0], height: lanes[1])
    }
}

/// A rectangle given by its origin and size (as `CGRect`). Interpolates origin and size
/// independently, as Core Animation does for `frame` and `bounds`; it is not standardised
/// (a negative width stays negative).
public struct Rect: Interpolatable, Hashable, Sendable {
    /// The corner with the smallest coordinates (for a non-negative size).
    public var origin: Point
    /// The extent.
    public var size: Size

    /// Creates the rectangle with the given origin and size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates the rectangle at (x, y) with the given width and height.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The rectangle at the origin with zero size.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// Four lanes: x, y, width, height.
    public static var laneCount: Int { 4 }

    public func writeLanes(into lanes: UnsafeMutableBufferPointer<Double>) {
        lanes[0] = origin.x
        lanes[1] = origin.y
        lanes[2] = size.width
        lanes[3] = size.height
    }

    public init(lanes: UnsafeBufferPointer<Double>) {
        self.init(x: lanes[0], y: lanes[1], width: lanes[2], height: lanes[3])
    }
}

/// A colour as red, green, blue and alpha components, nominally in [0, 1] in one fixed RGB
/// space (Kinetic does no colour management).
///
/// Interpolation is per component on the straight (not premultiplied) components, as
/// Core Animation interpolates `CGColor` components. Components are not clamped: an
/// overshooting easing can produce values outside [0, 1]; clamp when you render.
public struct Color: Interpolatable, Hashable, Sendable {
    /// The red component, nominally in [0, 1].
    public var red: Double
    /// The green component, nominally in [0, 1].
    public var green: Double
    /// The blue component, nominally in [0, 1].
    public var blue: Double
    /// The opacity, nominally in [0, 1] (0 transparent).
    public var alpha: Double

    /// Creates the colour from straight (non-premultiplied) components.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Four lanes: red, green, blue, alpha.
    public static var laneCount: Int { 4 }

    public func writeLanes(into lanes: UnsafeMutableBufferPointer<Double>) {
        lanes[0] = red
        lanes[1] = green
        lanes[2] = blue
        lanes[3] = alpha
    }

    public init(lanes: UnsafeBufferPointer<Double>) {
        self.init(red: lanes[0], green: lanes[1], blue: lanes[2], alpha: lanes[3])
    }
}
