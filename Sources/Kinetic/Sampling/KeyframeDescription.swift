/// A keyframe animation described as data — what `kinetic bake` reads from JSON: a
/// duration, an optional timing curve for the whole animation, and one or more named
/// properties, each a keyframe track.
///
/// ## JSON form
/// ```json
/// {
///   "duration": 1.5,
///   "timingCurve": "ease-in-out",
///   "properties": [
///     { "name": "opacity", "type": "scalar",
///       "keyTimes": [0, 0.5, 1], "values": [0, 1, 0.25],
///       "interpolation": ["linear", "hold"] },
///     { "name": "position", "type": "point",
///       "keyTimes": [0, 0.4, 1], "values": [[0, 0], [100, 40], [160, 0]],
///       "interpolation": "catmull-rom" },
///     { "name": "tint", "type": "color",
///       "values": [[1, 0, 0, 1], [0, 0, 1, 1], [0, 1, 0, 1]],
///       "calculationMode": "paced" }
///   ]
/// }
/// ```
///
/// - `duration`: seconds, finite and > 0. Required.
/// - `timingCurve`: optional; maps the animation's linear progress `t / duration` to the
///   progress fed to every track. A curve is a preset name (`"linear"`, `"ease"`,
///   `"ease-in"`, `"ease-out"`, `"ease-in-out"`, also `easeInOut`), CSS text
///   (`"cubic-bezier(0.25, 0.1, 0.25, 1)"`) or an array of 4 numbers `[x1, y1, x2, y2]`.
/// - `properties`: a non-empty array (its order is the column order of a bake). Each has:
///   - `name`: the column prefix; non-empty, no `,`, `"` or line break.
///   - `type`: `scalar`, `point`, `size`, `rect`, `color` or `transform2d`.
///   - `values`: at least one; a number for `scalar`, otherwise an array of components in
///     the order of ``KeyframeProperty/ValueType/componentNames`` — point `[x, y]`, size
///     `[width, height]`, rect `[x, y, width, height]`, color `[red, green, blue, alpha]`,
///     transform2d `[a, b, c, d, tx, ty]`. Every number finite.
///   - `keyTimes`: optional; one unitless time in [0, 1] per value, non-decreasing (a
///     repeated time is a jump). Default: evenly spaced `i / (n − 1)` (`i / n` for
///     `calculationMode: "discrete"`, which also accepts n + 1 key times).
///   - either `interpolation` — one entry for every segment, or an array of n − 1 entries
///     (entry `i` for the segment starting at keyframe `i`); an entry is `"hold"`,
///     `"linear"`, `"catmull-rom"` or a curve (an eased straight segment); default
///     `"linear"` —
///   - or `calculationMode` — Core Animation's `"linear"`, `"discrete"`, `"paced"`,
///     `"cubic"` or `"cubicPaced"` (also `"cubic-paced"`), with optional
///     `tensionValues`, `continuityValues` and `biasValues` (numbers per keyframe).
///     Giving both `interpolation` and `calculationMode` is an error.
///   - `easings`: optional per-keyframe easing, n − 1 entries, each a curve or `null`
///     (entry `i` eases the local progress of the segment starting at keyframe `i`). With
///     `interpolation` a non-null easing turns a `"linear"` segment into an eased one, is
///     ignored on a `"hold"` segment, and is an error on a `"catmull-rom"` or already eased
///     segment. With `calculationMode` the easings are Core Animation's
///     `timingFunctions` (`null` meaning linear), used by `linear` and `cubic` and ignored
///     by the other modes.
///
/// Unknown fields are errors (they are usually misspellings). The text must be strict
/// RFC 8259 JSON — no comments, trailing commas or `NaN`, no key twice in one object.
/// Reading reports the first problem as a ``KeyframeDescriptionError`` naming its JSON
/// path, or, for text that is not JSON, its line and column.
public struct KeyframeDescription: Sendable, Hashable {
    /// The animation's duration in seconds, finite and > 0.
    public var duration: Double
    /// Optional timing curve over the whole animation (`nil`: linear progress).
    public var timingCurve: CubicBezier?
    /// The animated properties, in column order (at least one).
    public var properties: [KeyframeProperty]

    /// Creates a description. Nothing is validated until a track is built or the
    /// description is baked (see ``bake(_:rate:)``); decoding from JSON validates fully.
    public init(duration: Double, timingCurve: CubicBezier? = nil, properties: [KeyframeProperty]) {
        self.duration = duration
        self.timingCurve = timingCurve
        self.properties = properties
    }
}

/// One named, keyframed property of a ``KeyframeDescription``.
public struct KeyframeProperty: Sendable, Hashable {
    /// The kind of value a property animates.
    public enum ValueType: String, Sendable, Hashable, CaseIterable {
        /// A `Double`; one column named after the property.
        case scalar
        /// A ``Point``; columns `x`, `y`.
        case point
        /// A ``Size``; columns `width`, `height`.
        case size
        /// A ``Rect``; columns `x`, `y`, `width`, `height`.
        case rect
        /// A ``Color``; columns `red`, `green`, `blue`, `alpha`.
        case color
        /// A ``Transform2D``; columns `a`, `b`, `c`, `d`, `tx`, `ty` (the matrix entries,
        /// not the interpolation lanes).
        case transform2d

        /// The component names, in JSON array order and column order (empty for a scalar,
        /// whose single column is the property name itself).
        public var componentNames: [String] {
            switch self {
            case .scalar: return []
            case .point: return ["x", "y"]
            case .size: return ["width", "height"]
            case .rect: return ["x", "y", "width", "height"]
            case .color: return ["red", "green", "blue", "alpha"]
            case .transform2d: return ["a", "b", "c", "d", "tx", "ty"]
            }
        }

        /// The number of numbers in one value (1 for a scalar).
        public var componentCount: Int { max(componentNames.count, 1) }
    }

    /// How the property moves between keyframes.
    public enum Motion: Sendable, Hashable {
        /// Per-segment interpolation: one entry (used for every segment) or one per
        /// segment (values.count − 1).
        case interpolation([KeyframeInterpolation])
        /// A Core Animation calculation mode with optional Kochanek–Bartels parameters per
        /// keyframe (used by `.cubic` and `.cubicPaced`).
        case calculationMode(
            KeyframeCalculationMode, tensionValues: [Double]? = nil,
            continuityValues: [Double]? = nil, biasValues: [Double]? = nil)
    }

    /// The property name, the column prefix in a bake.
    public var name: String
    /// The kind of value.
    public var type: ValueType
    /// Key times (unitless, in [0, 1], non-decreasing), or `nil` for evenly spaced keys.
    public var keyTimes: [Double]?
    /// The keyframe values, each `type.componentCount` numbers in component order.
    public var values: [[Double]]
    /// How the property moves between keyframes.
    public var motion: Motion
    /// Optional per-segment easing (values.count − 1 entries, `nil` for none); see the
    /// discussion of ``KeyframeDescription``.
    public var easings: [CubicBezier?]?

    /// Creates a property description (validated when its track is built).
    public init(
        name: String, type: ValueType, keyTimes: [Double]? = nil, values: [[Double]],
        motion: Motion = .interpolation([.linear]), easings: [CubicBezier?]? = nil
    ) {
        self.name = name
        self.type = type
        self.keyTimes = keyTimes
        self.values = values
        self.motion = motion
        self.easings = easings
    }

    /// The CSV column names of this property: the name alone for a scalar, otherwise
    /// `name.component` for each component.
    public var columnNames: [String] {
        type == .scalar ? [name] : type.componentNames.map { "\(name).\($0)" }
    }
}
