import CMalloc

/// Memory a process freed but its allocator still holds: glibc keeps freed blocks in the middle
/// of its heap for later use, so a resident process that allocated much for a while (a sync
/// cycle reading the dates of 100,000 notes, comparing a walk with the catalog) would hold that
/// peak for good.
public enum FreedMemory {
    /// Gives the pages of freed blocks back to the system (glibc's `malloc_trim`); what the
    /// process still uses is untouched. A resident process calls this after such a pass.
    public static func giveBack() {
        _ = malloc_trim(0)
    }
}
