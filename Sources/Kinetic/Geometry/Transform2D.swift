import RealModule

/// A 2-D affine transform with `CGAffineTransform`'s layout and conventions:
///
///     x' = a·x + c·y + tx
///     y' = b·x + d·y + ty
///
/// (the matrix `[a b 0; c d 0; tx ty 1]` acting on row vectors).
///
/// ## Interpolation
/// A transform interpolates as its decomposition
/// `translation · rotation(θ) · [sx m; 0 sy]` — translation (tx, ty), rotation angle θ in
/// radians, the scales sx ≥ 0 and sy (negative for a reflection) and the shear term m —
/// so that a rotation turns instead of collapsing through a singular matrix, as Core
/// Animation interpolates `transform`. Between consecutive keyframes the angle takes the
/// **shortest way round** (350° → 10° passes through 0°, not 180°); a track unwraps each
/// keyframe's angle to within π of the previous one when it is built. An exact half turn
/// may turn either way.
///
/// Lanes (6): tx, ty, θ, sx, sy, m. Decomposing and recomposing reproduces the matrix to
/// rounding.
public struct Transform2D: Interpolatable, Hashable, Sendable {
    /// The x-scale / rotation entry (row 0, column 0).
    public var a: Double
    /// Row 0, column 1.
    public var b: Double
    /// Row 1, column 0.
    public var c: Double
    /// Row 1, column 1.
    public var d: Double
    /// The horizontal translation.
    public var tx: Double
    /// The vertical translation.
    public var ty: Double

    /// Creates the transform from its six entries.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity transform.
    public static let identity = Transform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A rotation by `angle` radians (counter-clockwise in a y-up space, as
    /// `CGAffineTransform(rotationAngle:)`).
    public init(rotationAngle angle: Double) {
        let cosine = Double.cos(angle)
        let sine = Double.sin(angle)
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// A scale by `sx` horizontally and `sy` vertically.
    public init(scaleX sx: Double, y sy: Double) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A translation by (tx, ty).
    public init(translationX tx: Double, y ty: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// The transform that applies `self` first and then `other` (`CGAffineTransform`'s
    /// `concatenating`).
    public func concatenating(_ other: Transform2D) -> Transform2D {
        Transform2D(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty)
    }

    /// Applies the transform to a point.
    public func applied(to point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }

    // MARK: Interpolatable

    /// Six lanes: tx, ty, rotation angle (radians), sx, sy, shear.
    public static var laneCount: Int { 6 }

    public func writeLanes(into lanes: UnsafeMutableBufferPointer<Double>) {
        // The linear part maps x to the column (a, b) and y to (c, d) (column-vector view
        // [a c; b d]). Factor it as R(θ)·[sx m; 0 sy] (a QR factorisation).
        let sx = euclideanLength(a, b)
        let angle: Double
        let shear: Double
        let sy: Double
        if sx > 0 {
            angle = Double.atan2(y: b, x: a)
            let cosine = a / sx
            let sine = b / sx
            shear = c * cosine + d * sine
            sy = d * cosine - c * sine
        } else {
            // The x axis collapses; take the rotation from the y axis image instead.
            let length = euclideanLength(c, d)
            angle = length > 0 ? Double.atan2(y: -c, x: d) : 0
            shear = 0
            sy = length
        }
        lanes[0] = tx
        lanes[1] = ty
        lanes[2] = angle
        lanes[3] = sx
        lanes[4] = sy
        lanes[5] = shear
    }

    public init(lanes: UnsafeBufferPointer<Double>) {
        let angle = lanes[2], sx = lanes[3], sy = lanes[4], shear = lanes[5]
        let cosine = Double.cos(angle)
        let sine = Double.sin(angle)
        self.init(
            a: sx * cosine,
            b: sx * sine,
            c: shear * cosine - sy * sine,
            d: shear * sine + sy * cosine,
            tx: lanes[0], ty: lanes[1])
    }

    /// Unwraps the angle lane to within π of the previous keyframe's angle.
    public static func alignLanes(
        _ lanes: UnsafeMutableBufferPointer<Double>, after previous: UnsafeBufferPointer<Double>
    ) {
        lanes[2] = KeyframeLanes.unwrap(lanes[2], near: previous[2])
    }
}
