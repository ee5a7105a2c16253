import Foundation

// Writes a Swift source file that holds files' bytes: the tool the EmbedFiles build-tool plugin runs.
//
// USAGE: EmbedFiles OUTPUT.swift MANIFEST ROOT (--folder NAME PATH | --file NAME PATH)...
//
// PATH is relative to ROOT (the package root), so the generated source names no folder of this machine, or
// absolute for a file of the system (a Debian package's, read at build time).
// `--folder` becomes `static let NAME: [String: Data]` with every file below PATH by its path below it (names
// starting with `.` or ending with `~` left out, as a site's theme folder is read); `--file` becomes
// `static let NAME: Data`. The folder is listed here, at build time, so a file added to it is embedded by
// the next build (the plugin declares the folders as inputs for that).
//
// Valid UTF-8 becomes a string literal with every byte outside printable ASCII escaped (byte for byte the
// same once re-encoded); anything else becomes base64. Both are one literal per file, which the compiler
// reads in milliseconds, where an array literal of bytes takes seconds per hundred kilobytes to type-check.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("EmbedFiles: error: \(message)\n".utf8))
    exit(1)
}

/// Paths of the regular files below `folder` (symbolic links to files included), relative to it, sorted.
func files(below folder: URL, prefix: String = "") -> [String] {
    var result: [String] = []
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in names.sorted() where !name.hasPrefix(".") && !name.hasSuffix("~") {
        let child = folder.appendingPathComponent(name)
        var info = stat()
        guard lstat(child.path, &info) == 0 else { continue }
        if info.st_mode & S_IFMT == S_IFDIR {
            result += files(below: child, prefix: prefix + name + "/")
        } else if stat(child.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            result.append(prefix + name)
        }
    }
    return result
}

/// A Swift string literal whose UTF-8 is exactly `text`'s.
func stringLiteral(_ text: String) -> String {
    var literal = "\""
    literal.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": literal += "\\\\"
        case "\"": literal += "\\\""
        case "\n": literal += "\\n"
        case "\r": literal += "\\r"
        case "\t": literal += "\\t"
        case " "..."~": literal.unicodeScalars.append(scalar)
        default: literal += "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
    return literal + "\""
}

/// The expression giving a file's bytes.
func bytesExpression(_ url: URL) -> String {
    guard let data = FileManager.default.contents(atPath: url.path) else { fail("can't read \(url.path)") }
    if let text = String(validating: data, as: UTF8.self) {
        return "text(\(stringLiteral(text)))"
    }
    return "base64(\"\(data.base64EncodedString())\")"
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, (arguments.count - 3) % 3 == 0 else {
    fail("usage: EmbedFiles OUTPUT.swift MANIFEST ROOT (--folder NAME PATH | --file NAME PATH)...")
}
let (output, manifest, root) = (URL(fileURLWithPath: arguments[0]), arguments[1], URL(fileURLWithPath: arguments[2], isDirectory: true))
var source = """
    // Generated at build time by the EmbedFiles plugin from \(manifest); do not edit.
    import Foundation

    /// Files built into the module, as `\(manifest)` lists them.
    enum EmbeddedFiles {

    """
for start in stride(from: 3, to: arguments.count, by: 3) {
    let (kind, name, path) = (arguments[start], arguments[start + 1], arguments[start + 2])
    let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
    switch kind {
    case "--folder":
        source += "    /// Every file below `\(path)/`, by path below it.\n"
        source += "    static let \(name): [String: Data] = [\n"
        let found = files(below: url)
        for file in found {
            source += "        \(stringLiteral(file)): \(bytesExpression(url.appendingPathComponent(file))),\n"
        }
        if found.isEmpty { source += "        :\n" }
        source += "    ]\n"
    case "--file":
        source += "    /// `\(path)`, byte for byte.\n"
        source += "    static let \(name): Data = \(bytesExpression(url))\n"
    default:
        fail("expected --folder or --file, found '\(kind)'")
    }
}
source += """

        private static func text(_ literal: StaticString) -> Data {
            Data(bytes: literal.utf8Start, count: literal.utf8CodeUnitCount)
        }

        private static func base64(_ literal: StaticString) -> Data {
            Data(base64Encoded: Data(bytes: literal.utf8Start, count: literal.utf8CodeUnitCount)) ?? Data()
        }
    }

    """
// Written only when it changed, so an unchanged set of files doesn't recompile the module.
if FileManager.default.contents(atPath: output.path) != Data(source.utf8) {
    do {
        try Data(source.utf8).write(to: output, options: .atomic)
    } catch {
        fail("can't write \(output.path): \(error)")
    }
}
