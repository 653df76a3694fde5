/// A reference to an ``AnimationEngine`` that does not keep it alive: what its front and its
/// clock hold.
///
/// An engine has exactly one link, made with its front, and the link's reference is the
/// only weak one to the engine's handle. Animators and views hold the front instead (strongly),
/// so the objects they retain and release on every call have no weak reference and keep the
/// runtime's fast reference counting. The reference stays `weak` (not `unowned(unsafe)`,
/// which was tried): an engine whose last reference is dropped off the main actor runs its
/// isolated deinit later, on the main actor, and in between only a weak reference reads nil
/// instead of handing out the dying engine.
@MainActor
final class EngineLink {
    /// The engine, while it exists (nil from the moment its last strong reference goes).
    weak var engine: AnimationEngine?

    init() {}
}
