import Dispatch
import Synchronization

/// Runs async code to completion from a synchronous caller (the libFuzzer callback), on the global executor.
enum BlockingWait {
    static func result<T: Sendable>(of operation: @escaping @Sendable () async -> T) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            let result = await operation()
            box.value.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return box.take()
    }

    private final class Box<T: Sendable>: Sendable {
        let value = Mutex<T?>(nil)

        func take() -> T {
            value.withLock { stored in
                guard let stored else { preconditionFailure("the operation finished without a result") }
                return stored
            }
        }
    }
}
