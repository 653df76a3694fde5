import Kinetic

/// The animatable properties of a ``View``. Each is stored as a fixed run of `Double`
/// lanes, the unit the animation engine works on.
///
/// `frame` is not a stored property: it derives from `center`, `bounds.size` and
/// `transform`, so animating `frame` animates `center` and `bounds`, as in UIKit.
public enum AnimatableProperty: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// `center`: x, y (points, superview coordinates).
    case center
    /// `bounds`: origin x, origin y, width, height (points).
    case bounds
    /// `alpha`: opacity in [0, 1].
    case alpha
    /// `transform`: decomposed as `Transform2D`'s lanes — tx, ty (points), rotation
    /// (radians), scale x, scale y, shear — so that rotations turn rather than shrink.
    case transform
    /// `backgroundColor`: red, green, blue, alpha in [0, 1] (a nil colour animates as clear).
    case backgroundColor

    /// The lanes one value occupies.
    public var laneCount: Int {
        switch self {
        case .center: return 2
        case .bounds: return 4
        case .alpha: return 1
        case .transform: return 6
        case .backgroundColor: return 4
        }
    }

    /// The first lane of the property in a view's model storage.
    var offset: Int {
        switch self {
        case .center: return 0
        case .bounds: return 2
        case .alpha: return 6
        case .transform: return 7
        case .backgroundColor: return 13
        }
    }

    /// Total lanes of a view's model storage.
    static let totalLanes = 17

    /// Whether lane `j` of the property is a vertical quantity, which a spring's initial
    /// velocity drives with its `dy` component (every other lane uses `dx`, as UIKit does
    /// for one-dimensional properties).
    func isVertical(lane j: Int) -> Bool {
        switch self {
        case .center: return j == 1
        case .bounds: return j == 1 || j == 3
        case .alpha, .backgroundColor: return false
        case .transform: return j == 1 || j == 4
        }
    }

    public var description: String {
        switch self {
        case .center: return "center"
        case .bounds: return "bounds"
        case .alpha: return "alpha"
        case .transform: return "transform"
        case .backgroundColor: return "backgroundColor"
        }
    }
}

/// A snapshot of a view's animatable values: either its model (what was last set) or its
/// presentation (what the current frame shows).
public struct ViewValues: Hashable, Sendable {
    /// Centre in the superview's coordinates, points.
    public var center: Point
    /// Bounds, points.
    public var bounds: Rect
    /// Opacity in [0, 1].
    public var alpha: Double
    /// Affine transform applied about the centre.
    public var transform: Transform2D
    /// Fill colour (nil: none).
    public var backgroundColor: Color?

    /// The frame: the bounding box, in superview coordinates, of the bounds transformed
    /// about the centre (equal to `center ± size/2` when the transform is the identity).
    public var frame: Rect {
        ViewGeometry.frame(center: center, size: bounds.size, transform: transform)
    }
}

/// Frame arithmetic shared by views and snapshots.
enum ViewGeometry {
    static func frame(center: Point, size: Size, transform: Transform2D) -> Rect {
        if transform == .identity {
            return Rect(x: center.x - size.width / 2, y: center.y - size.height / 2,
                        width: size.width, height: size.height)
        }
        let hw = size.width / 2, hh = size.height / 2
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (cx, cy) in [(-hw, -hh), (hw, -hh), (-hw, hh), (hw, hh)] {
            let p = transform.applied(to: Point(x: cx, y: cy))
            minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
        }
        return Rect(x: center.x + minX, y: center.y + minY, width: maxX - minX, height: maxY - minY)
    }
}
