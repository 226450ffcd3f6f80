/// What the system does with a request that arrives while the screen is locked (`ScreenLockedBehavior`).
public enum ScreenLockedBehavior: String, Sendable, Hashable, CaseIterable {
    /// `Cancel` (the default): the request fails.
    case cancel = "Cancel"
    /// `DoNotHandle`: the request goes to the network without the extension.
    case doNotHandle = "DoNotHandle"
}
