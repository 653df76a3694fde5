import RealModule

/// A 4 × 4 homogeneous transform with `CATransform3D`'s layout and conventions: points are
/// row vectors, `p' = p · M`; (m41, m42, m43) is the translation and (m14, m24, m34) the
/// perspective column (m34 = −1/distance gives the usual perspective).
///
/// ## Interpolation
/// A transform interpolates as its decomposition. The upper-left 3 × 3 linear part is
/// factored by Gram–Schmidt on its rows into a rotation (stored as a unit quaternion),
/// three scales and three shear terms:
///
///     row1 = sx·n1
///     row2 = kxy·n1 + sy·n2
///     row3 = kxz·n1 + kyz·n2 + sz·n3      (n1, n2, n3 orthonormal, n3 = n1 × n2)
///
/// so sx, sy ≥ 0 and a reflection shows as sz < 0. Translation and the perspective column
/// (m14, m24, m34, m44) are taken as they are.
///
/// - Linear and eased segments: translation, scales, shears and perspective entries
///   interpolate linearly; the rotation **slerps** (constant angular speed on the great arc).
///   Each keyframe's quaternion is flipped into the hemisphere of the previous keyframe's,
///   so the rotation takes the **shortest** way (at most a half turn per segment).
/// - Cubic segments (Catmull-Rom, Hermite, `cubic` modes): all 17 lanes follow the spline,
///   the quaternion lanes included, and the quaternion is renormalised on recomposition.
///   The path of the rotation is then smooth but its angular speed is not exactly the
///   spline's.
/// - Deviation from the CSS Transforms / Graphics Gems "unmatrix" decomposition: that one
///   divides the perspective out of the matrix before factoring; this one keeps the
///   perspective column as raw lanes. Both reproduce every keyframe exactly and agree for
///   affine transforms (m14 = m24 = m34 = 0, m44 = 1); for projective keyframes the
///   in-between matrices differ.
///
/// Lanes (17): m41, m42, m43, sx, sy, sz, kxy, kxz, kyz, qx, qy, qz, qw, m14, m24, m34, m44.
public struct Transform3D: Interpolatable, Hashable, Sendable {
    public var m11: Double, m12: Double, m13: Double, m14: Double
    public var m21: Double, m22: Double, m23: Double, m24: Double
    public var m31: Double, m32: Double, m33: Double, m34: Double
    public var m41: Double, m42: Double, m43: Double, m44: Double

    /// Creates the transform from its 16 entries in row order.
    public init(
        m11: Double, m12: Double, m13: Double, m14: Double,
        m21: Double, m22: Double, m23: Double, m24: Double,
        m31: Double, m32: Double, m33: Double, m34: Double,
        m41: Double, m42: Double, m43: Double, m44: Double
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// The identity transform.
    public static let identity = Transform3D(
        m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

    /// A translation by (tx, ty, tz) (`CATransform3DMakeTranslation`).
    public init(translationX tx: Double, y ty: Double, z tz: Double) {
        self = .identity
        m41 = tx; m42 = ty; m43 = tz
    }

    /// A scale by (sx, sy, sz) (`CATransform3DMakeScale`).
    public init(scaleX sx: Double, y sy: Double, z sz: Double) {
        self = .identity
        m11 = sx; m22 = sy; m33 = sz
    }

    /// A rotation by `angle` radians about the axis (x, y, z) (`CATransform3DMakeRotation`;
    /// about (0, 0, 1) it equals ``Transform2D/init(rotationAngle:)``). A zero axis gives
    /// the identity.
    public init(rotationAngle angle: Double, x: Double, y: Double, z: Double) {
        var x = x, y = y, z = z
        var length = euclideanLength(x, y, z)
        if length > 0 && length < 0x1p-500 {
            // A tiny axis (subnormal components included) scaled by a power of two, exactly:
            // sin(angle / 2) / length would overflow.
            x *= 0x1p600; y *= 0x1p600; z *= 0x1p600
            length = euclideanLength(x, y, z)
        } else if length > 0x1p500 {
            // A huge axis (its length may overflow): sin(angle / 2) / length would vanish.
            x *= 0x1p-600; y *= 0x1p-600; z *= 0x1p-600
            length = euclideanLength(x, y, z)
        }
        guard length > 0 else {
            self = .identity
            return
        }
        let half = angle / 2
        let s = Double.sin(half) / length
        self = .identity
        setRotation(qx: x * s, qy: y * s, qz: z * s, qw: Double.cos(half), scales: (1, 1, 1), shears: (0, 0, 0))
    }

    /// The transform that applies `self` first and then `other` (`CATransform3DConcat`).
    public func concatenating(_ other: Transform3D) -> Transform3D {
        let l = rows, r = other.rows
        var out = [[Double]](repeating: [0, 0, 0, 0], count: 4)
        for i in 0 ..< 4 {
            for j in 0 ..< 4 {
                out[i][j] = l[i][0] * r[0][j] + l[i][1] * r[1][j] + l[i][2] * r[2][j] + l[i][3] * r[3][j]
            }
        }
        return Transform3D(
            m11: out[0][0], m12: out[0][1], m13: out[0][2], m14: out[0][3],
            m21: out[1][0], m22: out[1][1], m23: out[1][2], m24: out[1][3],
            m31: out[2][0], m32: out[2][1], m33: out[2][2], m34: out[2][3],
            m41: out[3][0], m42: out[3][1], m43: out[3][2], m44: out[3][3])
    }

    /// The four rows, each of four entries.
    public var rows: [[Double]] {
        [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
    }

    /// Sets the linear part to the rotation q (need not be normalised; zero gives the
    /// identity rotation) times the scale/shear triangle.
    private mutating func setRotation(
        qx: Double, qy: Double, qz: Double, qw: Double,
        scales: (Double, Double, Double), shears: (xy: Double, xz: Double, yz: Double)
    ) {
        var x = qx, y = qy, z = qz, w = qw
        let norm = euclideanLength(x, y, z, w)
        if norm > 0 && norm.isFinite {
            x /= norm; y /= norm; z /= norm; w /= norm
        } else {
            x = 0; y = 0; z = 0; w = 1
        }
        // Rotation rows n1, n2, n3 (images of the x, y, z axes under p' = p · M).
        let n1 = (1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w))
        let n2 = (2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w))
        let n3 = (2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
        let (sx, sy, sz) = scales
        m11 = sx * n1.0; m12 = sx * n1.1; m13 = sx * n1.2
        m21 = shears.xy * n1.0 + sy * n2.0
        m22 = shears.xy * n1.1 + sy * n2.1
        m23 = shears.xy * n1.2 + sy * n2.2
        m31 = shears.xz * n1.0 + shears.yz * n2.0 + sz * n3.0
        m32 = shears.xz * n1.1 + shears.yz * n2.1 + sz * n3.1
        m33 = shears.xz * n1.2 + shears.yz * n2.2 + sz * n3.2
    }

    // MARK: Interpolatable

    /// Seventeen lanes: translation (3), scales (3), shears (3), quaternion (4),
    /// perspective column (4).
    public static var laneCount: Int { 17 }

    public func writeLanes(into lanes: UnsafeMutableBufferPointer<Double>) {
        typealias V = (Double, Double, Double)
        func dot(_ p: V, _ q: V) -> Double { p.0 * q.0 + p.1 * q.1 + p.2 * q.2 }
        func scaled(_ p: V, _ s: Double) -> V { (p.0 * s, p.1 * s, p.2 * s) }
        func minus(_ p: V, _ q: V) -> V { (p.0 - q.0, p.1 - q.1, p.2 - q.2) }
        func cross(_ p: V, _ q: V) -> V {
            (p.1 * q.2 - p.2 * q.1, p.2 * q.0 - p.0 * q.2, p.0 * q.1 - p.1 * q.0)
        }
        /// `p` / `length` (> 0): through the reciprocal, unless that overflows (a subnormal length).
        func normalised(_ p: V, _ length: Double) -> V {
            let inverse = 1 / length
            return inverse.isFinite ? scaled(p, inverse) : (p.0 / length, p.1 / length, p.2 / length)
        }
        /// A unit vector orthogonal to the unit vector `p`.
        func perpendicular(_ p: V) -> V {
            let axis: V = abs(p.0) <= abs(p.1) && abs(p.0) <= abs(p.2) ? (1, 0, 0)
                : (abs(p.1) <= abs(p.2) ? (0, 1, 0) : (0, 0, 1))
            let c = cross(p, axis)
            return normalised(c, euclideanLength(c.0, c.1, c.2))
        }
        let r1: V = (m11, m12, m13), r2: V = (m21, m22, m23), r3: V = (m31, m32, m33)
        let sx = euclideanLength(r1.0, r1.1, r1.2)
        let n1: V = sx > 0 ? normalised(r1, sx) : (1, 0, 0)
        let kxy = dot(n1, r2)
        let w2 = minus(r2, scaled(n1, kxy))
        let sy = euclideanLength(w2.0, w2.1, w2.2)
        let n2: V = sy > 0 ? normalised(w2, sy) : perpendicular(n1)
        let n3 = cross(n1, n2)
        let kxz = dot(n1, r3), kyz = dot(n2, r3), sz = dot(n3, r3)

        // Quaternion of the rotation whose column-vector matrix has columns n1, n2, n3
        // (R[i][j] = n_j[i]); Shepperd's choice of the largest pivot.
        let r00 = n1.0, r11 = n2.1, r22 = n3.2
        let r01 = n2.0, r02 = n3.0, r10 = n1.1, r12 = n3.1, r20 = n1.2, r21 = n2.2
        let trace = r00 + r11 + r22
        var qx: Double, qy: Double, qz: Double, qw: Double
        if trace > 0 {
            let s = 2 * (trace + 1).squareRoot()
            qw = s / 4; qx = (r21 - r12) / s; qy = (r02 - r20) / s; qz = (r10 - r01) / s
        } else if r00 >= r11 && r00 >= r22 {
            let s = 2 * (1 + r00 - r11 - r22).squareRoot()
            qx = s / 4; qw = (r21 - r12) / s; qy = (r01 + r10) / s; qz = (r02 + r20) / s
        } else if r11 >= r22 {
            let s = 2 * (1 + r11 - r00 - r22).squareRoot()
            qy = s / 4; qw = (r02 - r20) / s; qx = (r01 + r10) / s; qz = (r12 + r21) / s
        } else {
            let s = 2 * (1 + r22 - r00 - r11).squareRoot()
            qz = s / 4; qw = (r10 - r01) / s; qx = (r02 + r20) / s; qy = (r12 + r21) / s
        }
        if qw < 0 { qx = -qx; qy = -qy; qz = -qz; qw = -qw }

        lanes[0] = m41; lanes[1] = m42; lanes[2] = m43
        lanes[3] = sx; lanes[4] = sy; lanes[5] = sz
        lanes[6] = kxy; lanes[7] = kxz; lanes[8] = kyz
        lanes[9] = qx; lanes[10] = qy; lanes[11] = qz; lanes[12] = qw
        lanes[13] = m14; lanes[14] = m24; lanes[15] = m34; lanes[16] = m44
    }

    public init(lanes: UnsafeBufferPointer<Double>) {
        self = .identity
        m41 = lanes[0]; m42 = lanes[1]; m43 = lanes[2]
        m14 = lanes[13]; m24 = lanes[14]; m34 = lanes[15]; m44 = lanes[16]
        setRotation(
            qx: lanes[9], qy: lanes[10], qz: lanes[11], qw: lanes[12],
            scales: (lanes[3], lanes[4], lanes[5]), shears: (lanes[6], lanes[7], lanes[8]))
    }

    /// Flips the quaternion into the hemisphere of the previous keyframe's.
    public static func alignLanes(
        _ lanes: UnsafeMutableBufferPointer<Double>, after previous: UnsafeBufferPointer<Double>
    ) {
        var dot = 0.0
        for i in 9 ..< 13 { dot += lanes[i] * previous[i] }
        if dot < 0 {
            for i in 9 ..< 13 { lanes[i] = -lanes[i] }
        }
    }

    /// Linear in every lane except the quaternion, which slerps.
    public static func interpolateLanes(
        from: UnsafeBufferPointer<Double>, to: UnsafeBufferPointer<Double>,
        fraction: Double, into output: UnsafeMutableBufferPointer<Double>
    ) {
        KeyframeLanes.lerp(from: from, to: to, fraction: fraction, into: output, range: 0 ..< 9)
        KeyframeLanes.lerp(from: from, to: to, fraction: fraction, into: output, range: 13 ..< 17)
        // Angle between the unit quaternions, θ = 2·atan2(|q0 − q1|, |q0 + q1|) (accurate
        // also for nearly equal quaternions, unlike acos of the dot product).
        var difference = 0.0, sum = 0.0
        for i in 9 ..< 13 {
            let d = to[i] - from[i], s = to[i] + from[i]
            difference += d * d
            sum += s * s
        }
        let theta = 2 * Double.atan2(y: difference.squareRoot(), x: sum.squareRoot())
        let sine = Double.sin(theta)
        if theta < 1e-6 || sine == 0 || fraction == 0 || fraction == 1 {
            KeyframeLanes.lerp(from: from, to: to, fraction: fraction, into: output, range: 9 ..< 13)
            return
        }
        let w0 = Double.sin((1 - fraction) * theta) / sine
        let w1 = Double.sin(fraction * theta) / sine
        for i in 9 ..< 13 { output[i] = w0 * from[i] + w1 * to[i] }
    }
}
