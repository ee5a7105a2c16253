import CSystem

/// The process's freed memory, given back to the system where a build is done with much of what it made (the
/// pages' trees after parsing, the previous site after a preview rebuild): otherwise the allocator keeps it, and
/// the process's resident size stays at its highest.
public enum FreedMemory {
    public static func giveBack() {
        glossary_trim_heap()
    }
}
