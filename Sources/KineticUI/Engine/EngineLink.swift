/// A reference to an ``AnimationEngine`` that does not keep it alive: what animators, views
/// and clocks hold instead of a `weak` reference.
///
/// A `weak` reference moves its target's reference count into a side table, after which
/// every retain and release of the engine (every animator call) takes the runtime's slow
/// path, and every read is a `swift_weakLoadStrong`. An engine has exactly one link, made
/// with it; its isolated deinit clears the link first, so a holder reads nil from then on,
/// as it would through a weak reference. The engine's memory is not freed before its deinit
/// has run, so the unmanaged pointer is never read after the engine is gone.
@MainActor
final class EngineLink {
    /// The engine, while it exists; nil from the start of its deinit.
    unowned(unsafe) var engine: AnimationEngine?

    init() {}
}
