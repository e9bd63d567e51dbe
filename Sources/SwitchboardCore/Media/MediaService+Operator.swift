/// The operator's side of uploads: storage in use, deleting one, and the
/// sweep of what no message carries.
extension MediaService {
    /// Storage in use, per uploader, and the latest uploads (newest first; whether a message carries each).
    public func usage(recent: Int = 50,
                      completion: @escaping @Sendable (Result<([MediaUsage], [(record: MediaRecord, carried: Bool)]), SwitchboardError>) -> Void) {
        bus.gate.run("media usage", { [store] in (try store.mediaUsage(), try store.recentMedia(limit: recent)) }, completion: completion)
    }

    /// Deletes upload `id` and its files (the admin's). False when there was none.
    public func delete(_ id: String, completion: @escaping @Sendable (Result<Bool, SwitchboardError>) -> Void) {
        guard MediaID.isValid(id) else { return completion(.success(false)) }
        bus.gate.run("media delete", { [self] in
            let existed = try store.deleteMedia(id)
            try files.remove(id)
            refreshUsage()
            return existed
        }, completion: completion)
    }

    /// Deletes every upload no message carries that is older than the
    /// unattached lifetime or whose messages were all deleted; their quota
    /// is free again. Then removes files kept over an hour ago that no
    /// record names (an upload refused or timed out after its bytes were
    /// kept, a crash between the two, a file deleted on another node still
    /// in this node's cache). Returns how many uploads went (on the gate; the caller's clock).
    /// First, while uploads' bytes are refused and none was for a minute,
    /// writes a small file to see whether they can be again.
    public func sweep(nowMilliseconds: Int64, completion: @escaping @Sendable (Result<Int, SwitchboardError>) -> Void) {
        let before = nowMilliseconds - limits.unattachedLifetimeMilliseconds
        let orphanedBefore = nowMilliseconds - 3_600_000
        let quietSince = nowMilliseconds - 60_000
        bus.gate.run("media sweep", { [self] in
            // Uploads refused (a full disk) and none for a minute: a probe of
            // their own says when there is room again, so that a quiet server's
            // log and `/metrics` say it without waiting for someone to upload.
            if writes.isFailing, !writes.hasFailed(after: quietSince), (try? files.checkWritable()) != nil { writes.succeeded() }
            let ids = try store.sweepableMedia(uploadedBefore: before)
            for id in ids where try store.deleteMedia(id) { try files.remove(id) }
            if !ids.isEmpty { refreshUsage() }
            let kept = try files.keptIDs(storedBefore: orphanedBefore)
            var known = Set<String>()
            for start in stride(from: 0, to: kept.count, by: 500) {
                known.formUnion(try store.mediaRecords(Array(kept[start..<min(start + 500, kept.count)])).map(\.id))
            }
            for id in kept where !known.contains(id) { try files.remove(id) }
            return ids.count
        }, completion: completion)
    }
}
