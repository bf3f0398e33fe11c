import Foundation

/// A store's run lock: one import at a time per store, held for as long as the object lives and
/// released when it goes (or when its process dies).
///
/// Taking one that is held throws `.busy` naming the holder. The store module has one per engine
/// (`FileRunLock`, `PostgresRunLock`);
/// `StoreLocation.open` hands out the right one.
public protocol RunLock: AnyObject {}
