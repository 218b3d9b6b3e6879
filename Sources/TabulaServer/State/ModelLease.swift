import TabulaModel

/// The model as one hold of `SharedState`'s lock lends it to the hold's body
/// (`SharedState.reading`, `writing`): the only way to reach it. A lease is good for as long
/// as the hold lasts and must not be kept past it; a debug build checks, at each access,
/// that the lock is held (for writing, to change the model).
///
/// The model is read and changed in place through it: never copied (a copy retains and
/// releases every array in it).
struct ModelLease {
    private let readable: UnsafePointer<Model>
    private let writable: UnsafeMutablePointer<Model>?
    #if DEBUG
        private let lock: SpinRWLock
    #endif

    init(readable: UnsafePointer<Model>, writable: UnsafeMutablePointer<Model>?, lock: SpinRWLock) {
        self.readable = readable
        self.writable = writable
        #if DEBUG
            self.lock = lock
        #endif
    }

    /// The model as this hold reads it: under the read lock on a loop, as committed; on the
    /// engine, or under the write lock, as it stands.
    var model: Model {
        unsafeAddress {
            #if DEBUG
                precondition(lock.isHeld, "the model was reached after its lock was released")
            #endif
            return readable
        }
    }

    /// The model to change: only a hold of the write lock may.
    var changing: Model {
        unsafeAddress { UnsafePointer(mutable()) }
        nonmutating unsafeMutableAddress { mutable() }
    }

    private func mutable() -> UnsafeMutablePointer<Model> {
        guard let writable else { preconditionFailure("the model is changed only under the write lock") }
        #if DEBUG
            precondition(lock.isHeldForWriting, "the model was changed after its write lock was released")
        #endif
        return writable
    }
}
