/// A reference to an ``AnimationEngine`` that does not keep it alive: what animators, views
/// and clocks hold instead of a `weak` reference of their own.
///
/// An engine has exactly one link, made with it, and the link's reference is the engine's
/// only weak one. A `weak` reference per animator and per view cost a weak-reference
/// registration and release for each of them; the link costs one per engine. The reference
/// stays `weak` (not `unowned(unsafe)`, which was tried): an engine whose last reference is
/// dropped off the main actor runs its isolated deinit later, on the main actor, and in
/// between only a weak reference reads nil instead of handing out the dying engine.
@MainActor
final class EngineLink {
    /// The engine, while it exists (nil from the moment its last strong reference goes).
    weak var engine: AnimationEngine?

    init() {}
}
