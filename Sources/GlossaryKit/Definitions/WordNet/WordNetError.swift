/// Why WordNet could not be opened: the folder it looked in and what was wrong there.
///
/// The caller turns it into a diagnostic; `description` is the message, naming the folder and the way to
/// point at another one.
public struct WordNetError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// The folder doesn't exist or isn't a folder.
        case missingFolder
        /// These database files are missing or unreadable.
        case unreadableFiles([String])
        /// libwordnet copies the path into 256-byte buffers; longer paths would overflow them.
        case pathTooLong(limit: Int)
        /// libwordnet's own initialisation failed, with the messages it reported.
        case libraryFailed([String])
        /// libwordnet keeps one database open per process, and it is this other folder.
        case anotherFolderOpen(String)
    }

    public var folder: String
    public var reason: Reason

    public init(folder: String, reason: Reason) {
        self.folder = folder
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .missingFolder:
            "no WordNet data folder at \(folder) (install wordnet-base, or set WNSEARCHDIR to the folder holding index.noun)"
        case .unreadableFiles(let files):
            "the WordNet data folder \(folder) lacks readable \(files.joined(separator: ", ")) (install wordnet-base, or set WNSEARCHDIR)"
        case .pathTooLong(let limit):
            "the WordNet data folder path is longer than \(limit) bytes, which libwordnet cannot use: \(folder)"
        case .libraryFailed(let messages):
            "libwordnet could not open the WordNet data in \(folder)"
                + (messages.isEmpty ? "" : ": " + messages.joined(separator: "; "))
        case .anotherFolderOpen(let open):
            "cannot open the WordNet data in \(folder): this process already uses \(open), and libwordnet holds one database at a time"
        }
    }
}
