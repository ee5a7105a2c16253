/// Names a scan of the site never lists and a watcher never reports: a folder's `.` and `..`, version control's files and folders (`.git`,
/// `.gitignore`, `.hg`, `.svn`), the system's (`.DS_Store`), and editors' temporary and backup files (`name~`,
/// `.name.swp`, `.swx`, `.swo`, `.#name`, `#name#`, vim's `4913`, atomic saves' `.name.tmp` and `.goutputstream-*`). Every other name is the site's, dotfiles too
/// (`.well-known/`, `.nojekyll`, `.htaccess`).
public enum IgnoredNames {
    public static func contains(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { contains(utf8: $0) }
    }

    /// `contains` on a name's UTF-8 bytes, as `readdir` gives them (plain byte comparisons: the polling watcher asks
    /// for every file on every look).
    public static func contains(utf8 name: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = name.count
        guard count > 0 else { return false }
        let (first, last) = (name[0], name[count - 1])
        if last == UInt8(ascii: "~") || (count > 1 && first == UInt8(ascii: "#") && last == UInt8(ascii: "#")) { return true }
        if name.elementsEqual("4913".utf8) { return true }
        guard first == UInt8(ascii: ".") else { return false }
        if count == 1 || (count == 2 && last == UInt8(ascii: ".")) { return true }
        let rest = name.dropFirst()
        if rest.starts(with: "git".utf8) || rest.elementsEqual("hg".utf8) || rest.elementsEqual("svn".utf8) || rest.elementsEqual("DS_Store".utf8) {
            return true
        }
        if rest.first == UInt8(ascii: "#") || rest.starts(with: "goutputstream-".utf8) { return true }
        // .name.tmp: an atomic save's temporary file, renamed over the name a moment later.
        if count >= 5 && name[(count - 4)...].elementsEqual(".tmp".utf8) { return true }
        // .name.swp, .swx, .swo
        return count >= 5 && name[count - 4] == UInt8(ascii: ".") && name[count - 3] == UInt8(ascii: "s") && name[count - 2] == UInt8(ascii: "w")
            && (last == UInt8(ascii: "p") || last == UInt8(ascii: "x") || last == UInt8(ascii: "o"))
    }

    /// Whether a path below `content/` has a folder or file named with a dot: such a file is copied as it is, never
    /// rendered as a page (`.well-known/notes.md` is published as written).
    public static func isHidden(_ path: String) -> Bool {
        // Byte by byte: Foundation's `contains` goes through `NSString` (a scan asks for every page).
        var previous = UInt8(ascii: "/")
        for byte in path.utf8 {
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: "/") { return true }
            previous = byte
        }
        return false
    }
}
