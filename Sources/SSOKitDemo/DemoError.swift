/// A step of the demo that could not run (a server that did not start, a page that was not what it should be).
public struct DemoError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    init(_ description: String) { self.description = description }
}
